# The Credence API. With NEO4J_URI set (docker-compose.yml does) it talks to Neo4j.
# Not built on the project's machines (no Docker engine there); see README "Three ways to run".
FROM python:3.11-slim

# torch is pinned, and comes from PyTorch's CPU wheel index: the default resolve pulls a multi-GB
# CUDA build the service never uses. Override TORCH_INDEX_URL to use a mirror.
ARG TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 CREDENCE_DATA_DIR=/app/data
WORKDIR /app

RUN pip install --no-cache-dir --index-url "$TORCH_INDEX_URL" "torch==2.13.0"
COPY pyproject.toml README.md ./
COPY api ./api
COPY graph ./graph
COPY cypher ./cypher
RUN pip install --no-cache-dir . \
    && useradd --create-home credence && mkdir -p /app/data && chown credence /app/data
USER credence
# The model's ONNX export, made and verified by sentence-transformers at build time: the service embeds on
# ONNX Runtime and never loads torch. A first start on an empty data volume makes it again.
RUN python -m graph.embedding.export
VOLUME /app/data

EXPOSE 8000
CMD ["python", "-m", "api"]
