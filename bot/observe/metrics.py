"""Prometheus metrics of the running bot (prometheus-client), on a registry of its own.

    vllm_report_last_sync_timestamp_seconds        the last collection that came back whole
    vllm_report_last_post_timestamp_seconds        the last daily run that posted (or archived)
    vllm_report_last_run_failed                    1 while the last daily run failed, else 0
    vllm_report_github_rate_limit_remaining{resource}
    vllm_report_github_requests_total{status}      answers GitHub gave, by status class
    vllm_report_posts_total{platform,destination,outcome}   messages sent, skipped or failed
    vllm_report_command_latency_seconds{command}   slash command: asked → answer ready
    vllm_report_report_build_seconds               making one report (collect + analyze)
    vllm_report_site_build_seconds                 the daily rebuild of the report site
    vllm_report_prose_sentences_total{verdict}     model sentences of daily reports: shown, dropped
    vllm_report_prose_requests_total{source}       their prose's parts: asked of the model, cached
    vllm_report_prose_failures_total{reason}       prose parts the model gave no usable text for

prometheus-client is imported when a `Metrics` is made (by `serve`), never for `--help`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.observe.github_meter import GitHubMeter

COMMAND_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
BUILD_BUCKETS = (0.1, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0)


class Metrics:
    def __init__(self) -> None:
        from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

        self.registry = CollectorRegistry()
        r = self.registry
        self.last_sync = Gauge(
            "vllm_report_last_sync_timestamp_seconds",
            "When the last whole collection from GitHub ended (Unix time)",
            registry=r,
        )
        self.last_post = Gauge(
            "vllm_report_last_post_timestamp_seconds",
            "When the last daily run delivered its report (Unix time)",
            registry=r,
        )
        self.last_run_failed = Gauge(
            "vllm_report_last_run_failed",
            "1 while the last daily run failed (0 before any run and after a success)",
            registry=r,
        )
        self.rate_limit = Gauge(
            "vllm_report_github_rate_limit_remaining",
            "GitHub requests left in the current rate-limit window",
            ["resource"],
            registry=r,
        )
        self.github_requests = Counter(
            "vllm_report_github_requests",
            "Answers received from GitHub, by status class",
            ["status"],
            registry=r,
        )
        self.posts = Counter(
            "vllm_report_posts",
            "Chat messages of daily posts and digests, by outcome",
            ["platform", "destination", "outcome"],
            registry=r,
        )
        self.command_latency = Histogram(
            "vllm_report_command_latency_seconds",
            "Slash commands: from the request to the answer being ready",
            ["command"],
            buckets=COMMAND_BUCKETS,
            registry=r,
        )
        self.report_build = Histogram(
            "vllm_report_report_build_seconds",
            "Making one daily report: collection, analysis, prose",
            buckets=BUILD_BUCKETS,
            registry=r,
        )
        self.site_build = Histogram(
            "vllm_report_site_build_seconds",
            "Rebuilding the report site after a daily report",
            buckets=BUILD_BUCKETS,
            registry=r,
        )

        self.prose_sentences = Counter(
            "vllm_report_prose_sentences",
            "Model-written sentences of daily reports, shown or dropped by the claims check",
            ["verdict"],
            registry=r,
        )
        self.prose_requests = Counter(
            "vllm_report_prose_requests",
            "Model requests of daily reports' prose (model), and parts served from the cache",
            ["source"],
            registry=r,
        )

        self.prose_failures = Counter(
            "vllm_report_prose_failures",
            "Parts of model prose not had, by reason (timeout, unreachable, no_model, refused, "
            "refused_request, server_error, not_the_api, not_json, token_budget, no_time); "
            "the log line of each says more, readers are never told",
            ["reason"],
            registry=r,
        )

    def prose_failed(self, reason: str) -> None:
        """A prose part the model gave nothing usable for (a ProseWriter listener)."""
        self.prose_failures.labels(reason=reason).inc()

    def watch(self, meter: GitHubMeter) -> None:
        """Keep the GitHub figures current as answers arrive."""

        def seen(found: GitHubMeter, status: int) -> None:
            self.github_requests.labels(status=f"{status // 100}xx").inc()
            for limit in list(found.limits.values()):
                self.rate_limit.labels(resource=limit.resource).set(limit.remaining)

        meter.listeners.append(seen)

    def render(self) -> tuple[bytes, str]:
        """The text exposition format and its content type."""
        from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

        return generate_latest(self.registry), CONTENT_TYPE_LATEST
