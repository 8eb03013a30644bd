"""Text embeddings: the sentence-transformers model, and its ONNX export for single queries."""
