"""PTB's HTTP transport on aiohttp instead of httpx.

Measured against the fake Bot API on the 2-core reference machine, a Bot API call through PTB's
default ``HTTPXRequest`` costs about 2.5 ms of CPU in httpx/httpcore/anyio alone, an aiohttp
client about 0.4 ms; a move makes five to seven calls (the answer, the table and hand edits, the
turn notice), so the transport was most of the adapter's CPU per move (``benchmarks/README.md``,
Load). aiohttp is already here for discord.py.

``AiohttpRequest`` keeps ``HTTPXRequest``'s contract: the same form encoding of parameters
(multipart when a file goes along), the same default timeouts (5 s; 20 s to write an upload),
the same connection pool sizes (256 for calls, 1 for ``getUpdates``), proxies from the
environment, certifi's CA bundle, ``TimedOut`` for a timeout and ``NetworkError`` for any other
transport failure.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import ssl
import urllib.parse
import urllib.request

import aiohttp
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

logger = logging.getLogger(__name__)

# PTB's HTTPXRequest defaults.
READ_TIMEOUT = 5.0
WRITE_TIMEOUT = 5.0
CONNECT_TIMEOUT = 5.0
POOL_TIMEOUT = 1.0
MEDIA_WRITE_TIMEOUT = 20.0


def _ssl_context() -> ssl.SSLContext:
    """Verify with certifi's bundle, as httpx does (a slim image may have no system CAs)."""
    try:
        import certifi
    except ImportError:  # pragma: no cover - certifi comes with httpx, which PTB requires
        return ssl.create_default_context()
    return ssl.create_default_context(cafile=certifi.where())


class AiohttpRequest(BaseRequest):
    """A ``telegram.request.BaseRequest`` on one ``aiohttp.ClientSession``."""

    def __init__(
        self,
        *,
        connection_pool_size: int = 256,
        read_timeout: float | None = READ_TIMEOUT,
        write_timeout: float | None = WRITE_TIMEOUT,
        connect_timeout: float | None = CONNECT_TIMEOUT,
        pool_timeout: float | None = POOL_TIMEOUT,
        media_write_timeout: float | None = MEDIA_WRITE_TIMEOUT,
    ) -> None:
        if connection_pool_size < 1:
            raise ValueError("connection_pool_size must be at least 1")
        self._pool_size = connection_pool_size
        self._read_timeout = read_timeout
        self._write_timeout = write_timeout
        self._connect_timeout = connect_timeout
        self._pool_timeout = pool_timeout
        self._media_write_timeout = media_write_timeout
        self._session: aiohttp.ClientSession | None = None
        # The proxy per (scheme, host), read from the environment once: aiohttp's trust_env
        # would look it (and ~/.netrc) up in a worker thread on every request.
        self._proxies: dict[tuple[str, str], tuple[str | None, dict[str, str] | None]] = {}

    @property
    def read_timeout(self) -> float | None:
        return self._read_timeout

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(limit=self._pool_size, ssl=_ssl_context())
            self._session = aiohttp.ClientSession(
                connector=connector,
                headers={"User-Agent": self.USER_AGENT},
            )

    async def shutdown(self) -> None:
        if self._session is None or self._session.closed:
            logger.debug("this AiohttpRequest is already shut down")
            return
        await self._session.close()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: object = BaseRequest.DEFAULT_NONE,
        write_timeout: object = BaseRequest.DEFAULT_NONE,
        connect_timeout: object = BaseRequest.DEFAULT_NONE,
        pool_timeout: object = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        """One HTTP request; the timeouts not given (PTB's ``DEFAULT_NONE``) are ours."""
        session = self._session
        if session is None or session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        files = request_data.multipart_data if request_data else None
        fields = request_data.json_parameters if request_data else None
        default_write = self._media_write_timeout if files else self._write_timeout
        timeout = _timeout(
            read=_given(read_timeout, self._read_timeout),
            write=_given(write_timeout, default_write),
            connect=_given(connect_timeout, self._connect_timeout),
            pool=_given(pool_timeout, self._pool_timeout),
        )
        data: aiohttp.FormData | dict[str, str] | None = fields
        if files:
            form = aiohttp.FormData()
            for name, value in (fields or {}).items():
                form.add_field(name, value)
            for name, (filename, content, mimetype) in files.items():
                form.add_field(name, content, filename=filename, content_type=mimetype)
            data = form
        proxy, proxy_headers = await self._proxy(url)
        try:
            async with session.request(
                method, url, data=data, timeout=timeout, proxy=proxy, proxy_headers=proxy_headers
            ) as response:
                return response.status, await response.read()
        except TimeoutError as error:
            # aiohttp's own timeouts (ServerTimeoutError, ...) are TimeoutErrors too.
            raise TimedOut from error
        except aiohttp.ClientError as error:
            raise NetworkError(f"aiohttp.{type(error).__name__}: {error}") from error

    async def _proxy(self, url: str) -> tuple[str | None, dict[str, str] | None]:
        """HTTPS_PROXY and friends (NO_PROXY honoured), as httpx reads them."""
        parsed = urllib.parse.urlsplit(url)
        key = (parsed.scheme, parsed.hostname or "")
        found = self._proxies.get(key)
        if found is None:
            found = self._proxies[key] = await asyncio.to_thread(_env_proxy, *key)
        return found


def _env_proxy(scheme: str, host: str) -> tuple[str | None, dict[str, str] | None]:
    """The proxy the environment names for ``scheme://host`` (may read files: a thread)."""
    if host and urllib.request.proxy_bypass(host):
        return None, None
    proxies = urllib.request.getproxies()
    proxy = proxies.get(scheme) or proxies.get("all")
    if not proxy:
        return None, None
    parsed = urllib.parse.urlsplit(proxy if "://" in proxy else f"http://{proxy}")
    if parsed.scheme not in ("http", "https"):
        logger.warning("proxy %s ignored: only HTTP(S) proxies are supported", parsed.scheme)
        return None, None
    headers = None
    if parsed.username is not None:
        login = urllib.parse.unquote(parsed.username)
        password = urllib.parse.unquote(parsed.password or "")
        token = base64.b64encode(f"{login}:{password}".encode()).decode("ascii")
        headers = {"Proxy-Authorization": f"Basic {token}"}
    netloc = parsed.netloc.rpartition("@")[2]
    return urllib.parse.urlunsplit(parsed._replace(netloc=netloc)), headers


def _given(value: object, default: float | None) -> float | None:
    """A timeout PTB passed (seconds, or ``None``: no timeout), or ours when it passed its
    ``DEFAULT_NONE``."""
    if isinstance(value, type(BaseRequest.DEFAULT_NONE)):
        return default
    if value is None:
        return None
    if isinstance(value, int | float):
        return float(value)
    raise TypeError(f"a timeout in seconds, not {value!r}")


def _timeout(
    *, read: float | None, write: float | None, connect: float | None, pool: float | None
) -> aiohttp.ClientTimeout:
    """httpx's four timeouts in aiohttp's terms: waiting for a pooled connection plus opening
    one is ``connect``; ``sock_read`` bounds each wait for the answer; aiohttp has no write
    timeout, so the whole request is bounded by the sum of the four."""
    parts = (read, write, connect, pool)
    total = None if any(p is None for p in parts) else sum(p for p in parts if p is not None)
    wait = None if connect is None or pool is None else connect + pool
    return aiohttp.ClientTimeout(total=total, connect=wait, sock_connect=connect, sock_read=read)


def build_requests(*, get_updates_read_timeout: float) -> tuple[AiohttpRequest, AiohttpRequest]:
    """The two transports of an Application: Bot API calls, and the long polls."""
    return (
        AiohttpRequest(),
        AiohttpRequest(connection_pool_size=1, read_timeout=get_updates_read_timeout),
    )
