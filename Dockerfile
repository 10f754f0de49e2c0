# Tavolo: the bot, one process per container (scale out with more containers on one PostgreSQL).
# Build: docker build -t tavolo .    Run: docker compose up (see docker-compose.yml, README.md).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATA_DIR=/data \
    METRICS_PORT=9100 \
    METRICS_LISTEN=0.0.0.0

RUN groupadd --system --gid 10001 tavolo \
    && useradd --system --uid 10001 --gid tavolo --home-dir /app tavolo

WORKDIR /app

# Dependencies first, in their own layer: it is rebuilt only when pyproject.toml changes.
# tests/deploy/install_steps.py reads the dependency list from pyproject.toml the same way.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml','rb'))['project']['dependencies']))" > /tmp/requirements.txt \
    && pip install --requirement /tmp/requirements.txt \
    && rm /tmp/requirements.txt

# Then the code; --no-deps: everything it needs is in the layer above.
COPY README.md ./
COPY engine ./engine
COPY bot ./bot
RUN pip install --no-deps . \
    && mkdir -p /data && chown tavolo:tavolo /data

USER 10001:10001

# The SQLite database (when DATABASE_URL is empty) and the adapters' small state files.
VOLUME ["/data"]

# Telegram webhook (TELEGRAM_WEBHOOK_PORT), /metrics + /health (METRICS_PORT) and the web table
# (WEB_PORT, behind the reverse proxy).
EXPOSE 8443 9100 8080

HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 \
    CMD ["tavolo", "health"]

# SIGTERM (docker stop) lets the moves in flight finish and closes the database.
STOPSIGNAL SIGTERM
ENTRYPOINT ["tavolo"]
CMD ["run"]
