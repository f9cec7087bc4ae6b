"""The breakage radar as JSON, `"schema": "vllm-radar/1"`: `vllm-report radar --format json`
and the daily report JSON's `radar`. Its keys are a contract (docs/contracts.md)."""

from __future__ import annotations

import json
from typing import Any

from bot.features.radar.forecast import forecast_to_dict
from bot.features.radar.model import Radar, UpstreamRef

SCHEMA = "vllm-radar/1"


def render_radar_json(radar: Radar) -> str:
    return json.dumps(radar_to_dict(radar), ensure_ascii=False, indent=1) + "\n"


def radar_to_dict(radar: Radar) -> dict[str, Any]:
    """`vllm-radar/1`: the radar command's JSON, and the daily report JSON's `radar` (with
    `warnings` when the radar carries its warnings: the daily run's, `radar --predict`)."""
    window = radar.window
    found: dict[str, Any] = {
        "schema": SCHEMA,
        "window": {
            "start": window.start.isoformat(),
            "end": window.end.isoformat(),
            "label": window.label,
        },
        "complete": radar.complete,
        "notes": list(radar.notes),
        "plugins": list(radar.plugins),
        "precision": {
            "measures": "share of culprit attributions shown not corrected by readers",
            "attributions": radar.attributions,
            "corrected": len(radar.corrections),
            "precision": radar.precision,
            "confirmed": radar.confirmed,  # upstream reverted the culprit
            "unconfirmed": radar.attributions - radar.confirmed,
        },
        "corrections": [
            {
                "plugin_repo": c.plugin_repo,
                "plugin_number": c.plugin_number,
                "upstream_number": c.upstream_number,
                "by": c.by,
                "at": c.at.isoformat(),
            }
            for c in radar.corrections
        ],
        "links": [
            {
                "plugin_repo": link.plugin_repo,
                "plugin_number": link.number,
                "plugin_kind": link.kind,
                "title": link.title,
                "state": link.state,
                "relation": link.relation,
                "upstream": [_ref_json(r) for r in link.upstream],
            }
            for link in radar.links
        ],
        "pins": [
            {
                "plugin_repo": pin.plugin_repo,
                "where": pin.where,
                "upstream_commit": pin.upstream_commit,
                "behind_commits": pin.behind_commits,
                "behind_days": pin.behind_days,
                "at": pin.at.isoformat() if pin.at else None,
                "since": pin.since.isoformat() if pin.since else None,
                "unchanged_days": pin.unchanged_days,
                "growing": pin.growing,
                "unknown": pin.unknown,
            }
            for pin in radar.pins
        ],
        "culprits": [
            {
                **_ref_json(c.ref),
                "title": c.title,
                "author": c.author,
                "merged_at": c.merged_at.isoformat() if c.merged_at else None,
                # True, False, or None: the archive does not hold vLLM since its merge.
                "reverted": c.reverted,
                "reverted_by": (
                    {
                        "number": c.reverted_by.number,
                        "title": c.reverted_by.title,
                        "merged_at": c.reverted_by.merged_at.isoformat(),
                    }
                    if c.reverted_by
                    else None
                ),
                "plugins": list(c.plugins),
                "fixes": [
                    {"plugin_repo": f.plugin_repo, "plugin_number": f.number} for f in c.fixes
                ],
            }
            for c in radar.culprits
        ],
        "open": [
            {
                "plugin_repo": b.plugin_repo,
                "plugin_number": b.number,
                "plugin_kind": b.kind,
                "title": b.title,
                "url": b.url,
                "author": b.author,
                "opened_at": b.opened_at.isoformat(),
                "age_days": b.age_days,
                "why": b.why,
                "upstream": list(b.upstream),
            }
            for b in radar.open
        ],
    }
    if radar.forecast is not None:
        found["warnings"] = forecast_to_dict(radar.forecast)
    return found


def _ref_json(ref: UpstreamRef) -> dict[str, Any]:
    """An upstream change: `role` (what the plugin PR makes it) and, for a cause GitHub was
    asked about, `verdict` (`verified` only for a merged PR merged before the fix)."""
    found: dict[str, Any] = {"repo": ref.repo}
    if ref.number is not None:
        found["number"] = ref.number
    if ref.sha is not None:
        found["sha"] = ref.sha
    found["role"] = ref.role
    if ref.verdict is not None:
        found["verdict"] = ref.verdict
    return found
