# The Credence API. With NEO4J_URI set (docker-compose.yml does) it talks to Neo4j.
FROM python:3.11-slim

# torch is pinned; pass TORCH_INDEX_URL (PyTorch's CPU wheel index) to avoid a multi-GB CUDA build.
ARG TORCH_INDEX_URL=
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1
WORKDIR /app

RUN pip install --no-cache-dir ${TORCH_INDEX_URL:+--index-url "$TORCH_INDEX_URL"} "torch==2.13.0"
COPY pyproject.toml README.md ./
COPY api ./api
COPY graph ./graph
COPY cypher ./cypher
COPY client ./client
RUN pip install --no-cache-dir . \
    && useradd --create-home credence && mkdir -p /app/data && chown credence /app/data
USER credence

EXPOSE 8000
CMD ["python", "-m", "api"]
