"""The local backends' generated secrets are safe to hand to a command-line parser."""
from __future__ import annotations

from graph.store.backends.child_process import secret_file


def test_generated_passwords_never_look_like_an_option(tmp_path):
    # Neo4j's set-initial-password reads a password that starts with '-' as an option and refuses
    # it: with URL-safe base64 that was one fresh data directory in 64.
    passwords = [secret_file(tmp_path / f"s{i}", exists_already=False) for i in range(3000)]
    assert not [p for p in passwords if p.startswith("-")]
    assert all(len(p) >= 32 for p in passwords)
    assert secret_file(tmp_path / "s0", exists_already=True) == passwords[0]  # kept, not regenerated
