"""Python client and command line for the Credence HTTP API."""
from client.http import Credence, CredenceAPIError

__all__ = ["Credence", "CredenceAPIError"]
