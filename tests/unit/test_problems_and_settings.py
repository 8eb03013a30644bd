from __future__ import annotations

import pytest
from pydantic import ValidationError

from api.problems import field_name
from graph.settings import Settings


def test_field_names_read_like_the_request():
    assert field_name(("body", "memories", 3, "text")) == "memories[3].text"
    assert field_name(("query", "limit")) == "limit"
    assert field_name(("body", "tags", 0)) == "tags[0]"
    assert field_name(("body",)) == "body"
    assert field_name(("body", "query")) == "query"
    assert field_name(("query", "query")) == "query"


def test_neo4j_needs_a_password(monkeypatch):
    monkeypatch.setenv("NEO4J_URI", "bolt://db.example:7687")
    monkeypatch.delenv("NEO4J_PASSWORD", raising=False)
    with pytest.raises(ValidationError, match="NEO4J_PASSWORD"):
        Settings()
    monkeypatch.setenv("NEO4J_PASSWORD", "pw")
    settings = Settings()
    assert settings.backend_kind == "neo4j" and settings.neo4j_password.get_secret_value() == "pw"
    assert "pw" not in repr(settings)


def test_settings_have_bounds(monkeypatch):
    monkeypatch.setenv("CREDENCE_PORT", "70000")
    with pytest.raises(ValidationError, match="port"):
        Settings()


def test_embedded_is_the_default_backend(monkeypatch):
    monkeypatch.delenv("NEO4J_URI", raising=False)
    assert Settings().backend_kind == "arcadedb-embedded"


def test_a_misspelt_setting_stops_the_start(monkeypatch):
    monkeypatch.setenv("CREDENCE_PROT", "9000")
    with pytest.raises(ValueError, match=r"CREDENCE_PROT .did you mean CREDENCE_PORT"):
        Settings.from_env()
    monkeypatch.delenv("CREDENCE_PROT")
    monkeypatch.setenv("CREDENCE_PORT", "9000")
    assert Settings.from_env().port == 9000


def test_the_client_s_variables_do_not_stop_the_service(monkeypatch):
    monkeypatch.setenv("CREDENCE_URL", "http://127.0.0.1:8000")
    monkeypatch.setenv("CREDENCE_ACTOR", "ops")
    monkeypatch.setenv("CREDENCE_PORT", "8100")
    assert Settings.from_env().port == 8100
