"""Tests of the radar's prediction of plugin breaks (`bot.features.radar.predict`)."""
