"""The pages a large tenant's search reads: the global vector index's (retrieval/vector): one row
always, every hit counted in `scanned`, only this tenant's hits listed, and with explain its hidden
ones too, each with its reason; and the full-text index's postings of each query term in this
tenant (retrieval/keyword_postings), the same way. The vector query filters this tenant's hits after
counting the page, so a page without any of them is the edge to hold."""
from __future__ import annotations

from graph.retrieval import SearchQuery, Visibility, keywords
from graph.retrieval.bm25 import K1, B
from tests.helpers import store


def pages(services, run, agent: str, text: str, *, explain: bool, k: int = 50) -> tuple[dict, dict]:
    filters = Visibility.of(SearchQuery(agent=agent, text=text), explain=explain).params()
    embedding = run(services.retrieval.embed, text)
    queries = [keywords.lucene_query([t], agent) for t in keywords.stemmed(keywords.terms(text)).stems]
    vector = run(lambda: services.runner.read_one("retrieval/vector", k=k, embedding=embedding, **filters))
    postings = run(lambda: services.runner.read_one("retrieval/keyword_postings", queries=queries, cap=k, top=k,
                                                    limit=k, k1=K1, b=B, memories=100, average_words=10.0,
                                                    **filters))
    return vector, postings


def test_a_page_without_this_tenants_hits_is_one_row_that_counts_the_others(client, agent, services, run):
    other = f"{agent}-crowd"
    for i in range(5):
        store(client, other, f"Quokka sighting number {i} on Rottnest island")
    vector, postings = pages(services, run, f"{agent}-nobody", "quokka rottnest", explain=True)
    assert vector["hits"] == [] and vector["scanned"] >= 5
    assert postings["hits"] == []  # the other tenant's matches are never this one's postings
    nothing = pages(services, run, agent, "xylophonist", explain=False)[1]
    assert nothing == {"hits": [], "candidates": 0, "capped": []}


def test_a_page_lists_this_tenants_hits_and_with_explain_its_hidden_ones(client, agent, services, run):
    other = f"{agent}-crowd"
    for i in range(5):
        store(client, other, f"Wombat burrow survey {i} near the creek")
    shown = store(client, agent, "The user counted wombat burrows near the creek")
    hidden = store(client, agent, "Wombat burrow count from last spring near the creek")
    client.delete(f"/v1/memories/{hidden['id']}", params={"agent": agent})  # archived

    vector, postings = pages(services, run, agent, "wombat burrow creek", explain=False)
    assert [h["id"] for h in vector["hits"]] == [shown["id"]] and vector["scanned"] >= 7
    assert [h["id"] for h in postings["hits"]] == [shown["id"]]
    vector, postings = pages(services, run, agent, "wombat burrow creek", explain=True)
    for page in (vector, postings):
        assert {h["id"]: h["reason"] for h in page["hits"]} == {shown["id"]: None, hidden["id"]: "archived"}
    # Every term's postings whole (none reached the cap): each hit lists every term it holds.
    assert postings["capped"] == []
    assert [sorted(h["matched"]) for h in postings["hits"] if h["id"] == shown["id"]] == [[0, 1, 2]]
    assert [h["text"] for h in postings["hits"] if h["id"] == shown["id"]] == [shown["text"]]
    assert [h.get("text") for h in postings["hits"] if h["id"] == hidden["id"]] == [None]  # hidden: no text


def test_a_term_whose_postings_reach_the_cap_is_named_for_the_hits_to_be_named_from_their_text(client, agent,
                                                                                                 services, run):
    """A hit may hold a capped term it does not list (its posting was past the cap): the caller then
    names the hit's matched terms from its text (graph/retrieval/service.py)."""
    first = store(client, agent, "A numbat foraged by the fallen log")
    second = store(client, agent, "Another numbat crossed the firebreak")
    postings = pages(services, run, agent, "numbat", explain=False, k=1)[1]
    assert postings["capped"] == [0]  # two memories hold "numbat"; the cap is one
    assert postings["hits"] and {h["id"] for h in postings["hits"]} <= {first["id"], second["id"]}
    texts = {first["id"]: first["text"], second["id"]: second["text"]}
    assert all(h["text"] == texts[h["id"]] for h in postings["hits"])
