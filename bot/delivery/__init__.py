"""Delivery: post a report's parts to each destination exactly once, thread first
(deliverer.py says how), in the terms of parts.py."""

from bot.delivery.deliverer import GONE_ATTEMPTS, Deliverer
from bot.delivery.parts import (
    COMPLETE_PART,
    Claim,
    DeliveryResult,
    Destination,
    DestinationGone,
    Heading,
    LeaseBusy,
    Ledger,
    OpensPosts,
    PartKey,
    Payload,
    Transport,
    TransportError,
    new_owner,
    wall_clock,
)

__all__ = [
    "COMPLETE_PART",
    "GONE_ATTEMPTS",
    "Claim",
    "Deliverer",
    "DeliveryResult",
    "Destination",
    "DestinationGone",
    "Heading",
    "LeaseBusy",
    "Ledger",
    "OpensPosts",
    "PartKey",
    "Payload",
    "Transport",
    "TransportError",
    "new_owner",
    "wall_clock",
]
