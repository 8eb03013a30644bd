"""Copies a dataset's files from its public repository, at a pinned commit, into bench/data/<name>/
(git-ignored). With --git-dir, from a local clone instead of the network."""
from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
from pathlib import Path

from bench.datasets.common import data_dir


def fetch(name: str, repo: str, commit: str, paths: list[str], description: str) -> None:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--git-dir", help="a local clone of github.com/" + repo + " to copy from (no network)")
    parser.add_argument("--dest", type=Path, default=data_dir(name), help="default: %(default)s")
    args = parser.parse_args()
    args.dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f"credence-{name}-") as tmp:
        git_dir = args.git_dir
        if git_dir is None:
            clone = Path(tmp) / "clone"
            subprocess.run(["git", "clone", "--quiet", "--no-checkout", "--filter=blob:none",
                            f"https://github.com/{repo}.git", str(clone)], check=True)
            git_dir = str(clone / ".git")
        archive = Path(tmp) / "files.tar"
        with archive.open("wb") as out:
            subprocess.run(["git", "--git-dir", git_dir, "archive", commit, *paths], check=True, stdout=out)
        subprocess.run(["tar", "-xf", str(archive), "-C", str(args.dest)], check=True)
    (args.dest / "SOURCE").write_text(f"github.com/{repo} at {commit}: {' '.join(paths)}\n")
    print(f"{name}: files of github.com/{repo}@{commit[:10]} in {args.dest}")


def remove(name: str) -> None:
    shutil.rmtree(data_dir(name), ignore_errors=True)
