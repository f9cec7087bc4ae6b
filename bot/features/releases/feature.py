"""The release digest, as the bot meets it: the `releases` subscription (a channel's or a
DM's), its `/vllm-topics` line and its digest after a daily run that saw a release."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.features import CommandServices, Feature, FeatureContext
from bot.features.releases.digest import KEY_FORMS, RELEASES

if TYPE_CHECKING:
    from bot.model.subscriptions import SubscriptionKey
    from bot.service.daily_run import FeatureDigests


def _check(key: SubscriptionKey) -> SubscriptionKey | None:
    return key if key.kind == RELEASES else None


def _services(ctx: FeatureContext) -> CommandServices:
    line = (
        f"{RELEASES} — when {ctx.settings.repo} publishes a release: the work merged since the "
        "release before it, by vendor and area (a subscription; `/vllm-report since "
        "last release` for any time)"
    )
    return CommandServices(topic_check=_check, topic_lines=(line,))


def _digests(ctx: FeatureContext) -> FeatureDigests:
    from bot.features.releases.digest import ReleaseDigests

    return ReleaseDigests(ctx)


FEATURE = Feature("releases", keys=KEY_FORMS, services=_services, digests=_digests)
