"""What personal digests read of GitHub (bot.features.personal.collect), over the fake's GraphQL."""

from __future__ import annotations

from bot.collect.client import Collector
from bot.collect.source import GitHubSource
from bot.features.personal.collect import pulls_facts
from tests.anchor_data import REPO
from tests.fakes.github_api import FakeGitHub


def test_a_number_github_cannot_resolve_costs_only_its_own_facts(fake_github: FakeGitHub) -> None:
    """GitHub answers a batch with one deleted PR as data plus a NOT_FOUND error: the other
    PRs' files and review requests still count, in the same one request."""
    prs = sorted(n for n, it in fake_github.items.items() if it.kind == "pr")[:3]
    fake_github.items[prs[0]].files = ["vllm/v1/engine/core.py"]
    fake_github.items[prs[1]].review_requests = ["tjtanaa"]
    fake_github.graphql_not_found = True
    gone = 9_999_999
    source = GitHubSource(repo=REPO, api_url=fake_github.url, request_interval=0, token="t0ken")
    fake_github.reset_log()
    found = pulls_facts(Collector(source), [prs[0], gone, prs[1]])
    assert [f.number for f in found] == [prs[0], gone, prs[1]]
    assert found[0].paths == ("vllm/v1/engine/core.py",)
    assert found[1].paths == () and found[1].requested == ()
    assert found[2].requested == ("tjtanaa",)
    assert len(fake_github.requests) == 1
