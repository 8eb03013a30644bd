"""Retrieval: vector and full-text candidates, fusion, rerank and explain."""
