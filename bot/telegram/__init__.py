"""The Telegram adapter (python-telegram-bot): updates -> service calls, service events -> messages.

It knows no game rules and writes no game text: the service decides, ``bot.render`` words it.
"""
