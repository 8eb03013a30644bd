"""Credence's HTTP layer: routers, request/response models, auth and error mapping. Thin."""
