"""Tavolo's bot: service, storage, rendering and the platform adapters."""
