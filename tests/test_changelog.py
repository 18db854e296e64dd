"""CHANGELOG.md keeps the Keep a Changelog form, and the site shows that very file.

https://keepachangelog.com/en/1.1.0/: an ``[Unreleased]`` section on top, then one
``## [X.Y.Z] - YYYY-MM-DD`` section per version, newest first, each grouped under
the six kinds of change. The version in pyproject.toml has its section, and
docs/changelog.md is no copy that could drift: it includes CHANGELOG.md.
"""

from __future__ import annotations

import datetime
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHANGELOG = ROOT / "CHANGELOG.md"
KINDS = {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}
RELEASE = re.compile(r"^\[(\d+)\.(\d+)\.(\d+)\] - (\d{4}-\d{2}-\d{2})$")


@pytest.fixture(scope="module")
def changelog() -> str:
    if not CHANGELOG.is_file():
        pytest.skip("needs the repository's CHANGELOG.md (run from a clone)")
    return CHANGELOG.read_text(encoding="utf-8")


def test_the_changelog_has_the_keep_a_changelog_form(changelog: str) -> None:
    lines = changelog.splitlines()
    assert lines[0] == "# Changelog"
    versions = [line[3:] for line in lines if line.startswith("## ")]
    assert versions[0] == "[Unreleased]", "the first section is [Unreleased]"
    released = []
    for heading in versions[1:]:
        match = RELEASE.match(heading)
        assert match, f"{heading!r} is not '[X.Y.Z] - YYYY-MM-DD'"
        datetime.date.fromisoformat(match[4])
        released.append(tuple(int(part) for part in match.group(1, 2, 3)))
    assert released == sorted(released, reverse=True), "versions newest first"
    assert len(set(released)) == len(released), "a version written twice"
    kinds = [line[4:] for line in lines if line.startswith("### ")]
    assert kinds and set(kinds) <= KINDS, f"unknown kinds of change: {set(kinds) - KINDS}"


def test_the_version_of_pyproject_has_its_section(changelog: str) -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "version"
    ]
    assert re.search(rf"^## \[{re.escape(version)}\] - ", changelog, re.MULTILINE), version


def test_the_site_shows_the_changelog_itself(changelog: str) -> None:
    # pymdownx.snippets puts CHANGELOG.md in the page when the site is built
    # (check_paths: a missing file fails `mkdocs build`).
    assert (ROOT / "docs" / "changelog.md").read_text(encoding="utf-8") == (
        '--8<-- "CHANGELOG.md"\n'
    )
    mkdocs = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(
        r"- pymdownx\.snippets:\n\s+base_path: !relative \$config_dir\n\s+check_paths: true",
        mkdocs,
    )
    assert re.search(r"^\s+- Changelog: changelog\.md$", mkdocs, re.MULTILINE)
