"""Observability: structured log lines, Prometheus metrics, the health endpoint.

* :func:`configure_logging` sets the root logger up as plain text, JSON or key=value lines
  (``LOG_FORMAT``); fields passed as ``extra=`` (``table_id``, ``platform``, ``latency_ms``...)
  become fields of the line. Every configured token is replaced by ``***`` in every line.
* :class:`Metrics` keeps the counters and the latency histogram; ``prometheus_client`` writes
  them in Prometheus' text exposition format (its own registry per process, not the global one).
* :class:`ObservedService` wraps the :class:`~bot.service.TableService` that the adapters call:
  one log line per call (``event=call call=play platform=telegram table_id=7 latency_ms=3.1
  outcome=ok``), the metrics, and a count of calls in flight so a shutdown can wait for them.
* :func:`serve_http` answers ``GET /metrics`` and ``GET /health`` (``METRICS_PORT``); the web
  table's server (``WEB_PORT``) answers them too. The text is ``prometheus_client``'s.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import TYPE_CHECKING

import sqlalchemy as sa

from bot.domain.actions import Action, Verb
from bot.store import Store, schema

if TYPE_CHECKING:
    from prometheus_client import CollectorRegistry, Metric

__all__ = [
    "Metrics",
    "ObservedService",
    "check_database",
    "configure_logging",
    "live_tables",
    "serve_http",
]

logger = logging.getLogger(__name__)

# Seconds; a move is mostly a database commit, a computer's answer may take a second or two.
# Prometheus' text format (prometheus_client.CONTENT_TYPE_LATEST of the 0.0.4 format).
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
# Service calls that apply a move when they succeed (press: unless its action is a button of
# the lobby/table menu, "@..." or "?...").
_MOVE_CALLS = frozenset({"play", "press"})
_STANDARD_ATTRS = frozenset(
    logging.LogRecord("", 0, "", 0, "", None, None).__dict__.keys() | {"message", "asctime"}
)


def _redact(record: logging.LogRecord, secrets: list[str]) -> None:
    """Replace every secret in ``record``'s final message (and its exception text) by ***."""
    message = record.getMessage()
    if record.exc_info and not record.exc_text:
        record.exc_text = logging.Formatter().formatException(record.exc_info)
    for secret in secrets:
        message = message.replace(secret, "***")
        if record.exc_text:
            record.exc_text = record.exc_text.replace(secret, "***")
    record.msg, record.args = message, None


class _Redact(logging.Filter):
    """The redaction as a handler filter, for the handler :func:`configure_logging` installs."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        if self.secrets:
            _redact(record, self.secrets)
        return True


class _RedactingFactory:
    """A log record factory that redacts as each record is made: a handler added after
    start-up (by a library, a debugger, a test) never sees a secret either."""

    def __init__(self, base: Callable[..., logging.LogRecord], secrets: list[str]) -> None:
        self.base = base
        self.secrets = secrets

    def __call__(self, *args: object, **kwargs: object) -> logging.LogRecord:
        record = self.base(*args, **kwargs)
        _redact(record, self.secrets)
        return record


def _install_record_factory(secrets: list[str]) -> None:
    base = logging.getLogRecordFactory()
    if isinstance(base, _RedactingFactory):  # configured again: replace, never stack
        base = base.base
    logging.setLogRecordFactory(_RedactingFactory(base, secrets) if secrets else base)


class StructuredFormatter(logging.Formatter):
    """One line per record: ``json`` objects or ``kv`` (key=value, values quoted if needed)."""

    def __init__(self, style: str) -> None:
        super().__init__()
        self.style_name = style

    def format(self, record: logging.LogRecord) -> str:
        fields: dict[str, object] = {
            "ts": round(record.created, 3),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD_ATTRS and not key.startswith("_"):
                fields[key] = value
        if record.exc_info:
            fields["exc"] = record.exc_text or self.formatException(record.exc_info)
        if self.style_name == "json":
            return json.dumps(fields, ensure_ascii=False, default=str)
        return " ".join(f"{key}={_kv(value)}" for key, value in fields.items())


def _kv(value: object) -> str:
    text = str(value)
    if not text or any(c in text for c in ' "=\n\t'):
        return json.dumps(text, ensure_ascii=False)
    return text


def configure_logging(level: str, fmt: str, *, secrets: Iterable[str] = ()) -> None:
    """The root logger: ``fmt`` text | json | kv, to stderr, with ``secrets`` redacted."""
    handler = logging.StreamHandler()
    if fmt == "text":
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    else:
        handler.setFormatter(StructuredFormatter(fmt))
    secrets = [s for s in secrets if s]
    # On the handler, so records of every logger (third-party ones too) pass through it, and in
    # the record factory, for handlers that others add later.
    handler.addFilter(_Redact(secrets))
    _install_record_factory(secrets)
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)


class Metrics:
    """Counters, one histogram and gauges read at scrape time; exposed by prometheus_client."""

    def __init__(self) -> None:
        self.counters: dict[tuple[str, tuple[tuple[str, str], ...]], float] = {}
        self.buckets = [0] * (len(LATENCY_BUCKETS) + 1)
        self.latency_sum = 0.0
        self.latency_count = 0
        self.gauges: dict[str, Callable[[], Awaitable[float]]] = {}
        self._gauge_values: dict[str, float] = {}
        self._registry: CollectorRegistry | None = None

    def inc(self, name: str, amount: float = 1.0, **labels: str) -> None:
        key = (name, tuple(sorted(labels.items())))
        self.counters[key] = self.counters.get(key, 0.0) + amount

    def value(self, name: str, **labels: str) -> float:
        return self.counters.get((name, tuple(sorted(labels.items()))), 0.0)

    def observe_latency(self, seconds: float) -> None:
        self.buckets[bisect.bisect_left(LATENCY_BUCKETS, seconds)] += 1
        self.latency_sum += seconds
        self.latency_count += 1

    async def exposition(self) -> str:
        """Every metric in Prometheus' text format, written by ``prometheus_client`` (the
        gauges are read first: they are async, the client's collectors are not)."""
        from prometheus_client import generate_latest

        values: dict[str, float] = {}
        for gauge, read in sorted(self.gauges.items()):
            try:
                values[gauge] = await read()
            except Exception:
                logger.warning("metric %s could not be read", gauge, exc_info=True)
        self._gauge_values = values
        return generate_latest(self.registry).decode()

    def gauge_values(self) -> dict[str, float]:
        """The gauges as last read (by the latest ``exposition``), by name."""
        return dict(self._gauge_values)

    @property
    def registry(self) -> CollectorRegistry:
        """This process's ``prometheus_client`` registry (not the client's global one): the
        service's metrics, and any a front end adds (the web table's)."""
        if self._registry is None:
            from prometheus_client import CollectorRegistry

            registry = CollectorRegistry(auto_describe=False)
            registry.register(_Collector(self))
            self._registry = registry
        return self._registry


_COUNTER_HELP = {
    "tavolo_moves_total": "Moves applied by this process (humans' and timers').",
    "tavolo_calls_total": "Service calls, by call and outcome (ok, refused, error).",
    "tavolo_errors_total": "Service calls that raised an error.",
    "tavolo_timers_fired_total": "Turn timers fired by this process.",
}


class _Collector:
    """The service's counters, call latency and gauges, as ``prometheus_client`` metrics."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterable[Metric]:
        from prometheus_client.core import GaugeMetricFamily, HistogramMetricFamily, Metric

        m = self.metrics
        for name, help_text in _COUNTER_HELP.items():
            family = Metric(name.removesuffix("_total"), help_text, "counter")
            series = sorted((k, v) for k, v in m.counters.items() if k[0] == name)
            if not series:
                family.add_sample(name, {}, 0.0)
            for (_, labels), value in series:
                family.add_sample(name, dict(labels), value)
            yield family
        cumulative = 0
        buckets = []
        for bound, count in zip((*LATENCY_BUCKETS, float("inf")), m.buckets, strict=True):
            cumulative += count
            buckets.append(("+Inf" if bound == float("inf") else repr(bound), float(cumulative)))
        yield HistogramMetricFamily(
            "tavolo_call_latency_seconds",
            "Latency of the service calls the adapters make.",
            buckets=buckets,
            sum_value=m.latency_sum,
        )
        for gauge, value in sorted(m.gauge_values().items()):
            yield GaugeMetricFamily(gauge, gauge.replace("_", " "), value=value)


class ObservedService:
    """The service as the adapters see it: every public ``async`` call is logged, measured and
    counted; everything else passes through unchanged."""

    def __init__(self, service: object, metrics: Metrics) -> None:
        self._service = service
        self._metrics = metrics
        self._in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()

    @property
    def in_flight(self) -> int:
        return self._in_flight

    async def wait_idle(self, timeout: float) -> bool:
        """Wait until no call is in flight (at most ``timeout`` s); False if some still are."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), timeout)
        return self._in_flight == 0

    def __getattr__(self, name: str) -> object:
        target: object = getattr(self._service, name)
        if name.startswith("_") or not asyncio.iscoroutinefunction(target):
            return target
        call = target

        async def observed(*args: object, **kwargs: object) -> object:
            return await self._call(name, call, args, kwargs)

        return observed

    async def _call(
        self,
        name: str,
        target: Callable[..., Awaitable[object]],
        args: tuple[object, ...],
        kwargs: dict[str, object],
    ) -> object:
        self._in_flight += 1
        self._idle.clear()
        started = time.perf_counter()
        outcome = "error"
        result: object = None
        try:
            result = await target(*args, **kwargs)
            refusal = getattr(result, "refusal", None)
            outcome = "ok" if refusal is None else "refused"
            return result
        finally:
            latency = time.perf_counter() - started
            self._in_flight -= 1
            if self._in_flight == 0:
                self._idle.set()
            self._record(name, args, kwargs, result, outcome, latency)

    def _record(
        self,
        name: str,
        args: tuple[object, ...],
        kwargs: Mapping[str, object],
        result: object,
        outcome: str,
        latency: float,
    ) -> None:
        platform = _platform(args, kwargs, result)
        table = getattr(result, "table", None) if result is not None else None
        table_id = getattr(table, "id", None) if table is not None else None
        metrics = self._metrics
        if name != "fire_due_timers":  # the timer loop's polls are not what users wait for
            metrics.observe_latency(latency)
        metrics.inc("tavolo_calls_total", call=name, outcome=outcome, platform=platform)
        if outcome == "error":
            metrics.inc("tavolo_errors_total", call=name, platform=platform)
        if name == "fire_due_timers" and isinstance(result, list):
            for fired in result:
                fired_table = getattr(fired, "table", None)
                fired_platform = getattr(fired_table, "platform", "") or ""
                metrics.inc("tavolo_timers_fired_total", platform=fired_platform)
                logger.info(
                    "timer fired",
                    extra={
                        "event": "timer",
                        "platform": fired_platform,
                        "table_id": getattr(fired_table, "id", None),
                    },
                )
            if not result:
                return  # the timer loop's idle polls would drown the log
        elif outcome == "ok" and name in _MOVE_CALLS and _is_move(name, args, kwargs):
            metrics.inc("tavolo_moves_total", platform=platform)
        logger.info(
            "%s %s",
            name,
            outcome,
            extra={
                "event": "call",
                "call": name,
                "platform": platform,
                "table_id": table_id,
                "latency_ms": round(latency * 1000, 2),
                "outcome": outcome,
            },
        )


def _platform(args: tuple[object, ...], kwargs: Mapping[str, object], result: object) -> str:
    for value in (*args, *kwargs.values()):
        platform = getattr(value, "platform", None)
        if isinstance(platform, str):
            return platform
    table = getattr(result, "table", None)
    return str(getattr(table, "platform", "") or "")


def _is_move(name: str, args: tuple[object, ...], kwargs: Mapping[str, object]) -> bool:
    if name == "play":
        return True
    data = kwargs.get("data", args[2] if len(args) > 2 else "")
    if isinstance(data, Action):  # press takes the Action, or its encoding
        return data.verb is Verb.MOVE
    action = str(data).split(":", 2)[-1]
    return not action.startswith(("@", "?"))


async def live_tables(store: Store) -> float:
    """Tables open now (lobby or playing), across every process sharing the database."""
    t = schema.tables
    query = sa.select(sa.func.count()).select_from(t).where(t.c.status.in_(("lobby", "playing")))
    async with store.engine.connect() as conn:
        return float((await conn.execute(query)).scalar_one())


async def check_database(store: Store) -> None:
    """Raises unless the database answers a query."""
    async with store.engine.connect() as conn:
        await conn.execute(sa.text("SELECT 1"))


async def serve_http(
    *,
    host: str,
    port: int,
    metrics: Metrics,
    health: Callable[[], Awaitable[dict[str, object]]],
) -> asyncio.Server:
    """``GET /metrics`` (Prometheus text) and ``GET /health`` (JSON; 200 ok, 503 not ok)."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            request = await asyncio.wait_for(reader.readline(), 10)
            # The headers are read and ignored: no request here has a body.
            for _ in range(100):
                line = await asyncio.wait_for(reader.readline(), 10)
                if line in (b"\r\n", b"\n", b""):
                    break
            parts = request.decode("latin-1").split()
            path = parts[1].split("?", 1)[0] if len(parts) >= 2 else ""
            if len(parts) < 2 or parts[0] not in ("GET", "HEAD"):
                status, ctype, body = "405 Method Not Allowed", "text/plain", b"GET only\n"
            elif path == "/metrics":
                status = "200 OK"
                ctype = CONTENT_TYPE
                body = (await metrics.exposition()).encode()
            elif path in ("/health", "/healthz"):
                report = await health()
                status = "200 OK" if report.get("ok") else "503 Service Unavailable"
                ctype, body = "application/json", json.dumps(report).encode()
            else:
                status, ctype, body = "404 Not Found", "text/plain", b"not found\n"
            head = (
                f"HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
            )
            writer.write(head.encode() + (b"" if parts[:1] == ["HEAD"] else body))
            await writer.drain()
        except (TimeoutError, ConnectionError, UnicodeDecodeError):
            pass
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    return await asyncio.start_server(handle, host, port)
