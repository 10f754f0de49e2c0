"""Local fake servers that the real platform libraries talk to in end-to-end tests."""
