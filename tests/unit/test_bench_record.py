"""bench/record.py: where a benchmark's table lands in docs/benchmarks.md."""
from bench.record import record

DOC = "# Benchmarks\n\n## `bench/a.py`: the first\n\nabout a\n\n## `bench/b.py`: the second\n\nabout b\n"


def test_a_first_table_lands_at_the_end_of_its_benchmarks_section(tmp_path):
    doc = tmp_path / "benchmarks.md"
    doc.write_text(DOC)
    record("a-run", "| a | 1 |\n", script="a.py", doc=doc)
    text = doc.read_text()
    assert text.index("about a") < text.index("<!-- bench:a-run -->") < text.index("## `bench/b.py`")


def test_a_second_run_replaces_the_first_in_place(tmp_path):
    doc = tmp_path / "benchmarks.md"
    doc.write_text(DOC)
    record("a-run", "| a | 1 |\n", script="a.py", doc=doc)
    record("a-run", "| a | 2 |\n", script="a.py", doc=doc)
    text = doc.read_text()
    assert "| a | 2 |" in text and "| a | 1 |" not in text and text.count("<!-- bench:a-run -->") == 1


def test_a_benchmark_without_a_section_appends_at_the_end(tmp_path):
    doc = tmp_path / "benchmarks.md"
    doc.write_text(DOC)
    record("c-run", "| c | 1 |\n", script="c.py", doc=doc)
    assert doc.read_text().rstrip().endswith("<!-- /bench:c-run -->")
