# Deckhand: the Discord bot. Build: docker build -t deckhand .
# Run:   docker run --env-file .env -v deckhand-data:/data deckhand
# The database is /data/deckhand.db, in the volume; the container works in /data, so a
# relative DECKHAND_DB from .env lands in the volume too.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 DECKHAND_DB=/data/deckhand.db
# Pictures draw Chinese, Japanese and Korean names with this font (bot/art/draw.py).
RUN apt-get update && apt-get install -y --no-install-recommends fonts-wqy-microhei \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY pyproject.toml README.md ./
COPY games ./games
COPY storage ./storage
COPY bot ./bot
COPY i18n ./i18n
RUN pip install --no-cache-dir . \
    && useradd --create-home --uid 10001 deckhand \
    && mkdir -p /data && chown deckhand /data
USER deckhand
WORKDIR /data
VOLUME ["/data"]
ENTRYPOINT ["deckhand"]
CMD ["run"]
