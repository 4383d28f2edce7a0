"""Which addresses an avatar may be fetched from, its redirects' targets included.

An avatar address comes from the API's data and its redirects from the image host, so
either may be hostile: pointed at this computer, the local network or a cloud's metadata
service, the viewer would fetch from places the person never meant to reach. Every
address is therefore checked before it is asked: http or https only, a few redirects at
most, never from https back to http, and never to a loopback, link-local, private,
unspecified, multicast or reserved address, whether written literally or reached through
a host name (which is resolved, and the verdict kept for a short while). Only when the
API server itself is on such an address (the demo server, a server on the local network)
may its avatars be too. No Qt here: the rules are plain and tested on their own.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import time
from collections.abc import Awaitable, Callable, Sequence

import httpx

MAX_REDIRECTS = 3
"""Redirects one avatar may take; image hosts need one, now and then two."""
HOST_VERDICT_SECONDS = 60.0
"""How long a host name's verdict is kept: long enough for a page of avatars, no longer."""
HOST_VERDICT_ENTRIES = 256
SERVER_LOOKUP_SECONDS = 5.0
"""How long deciding about the API server's own address may take before it counts as public."""
WEB_SCHEMES = ("http", "https")
NAT64_PREFIX = ipaddress.IPv6Network("64:ff9b::/96")

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Lookup = Callable[[str], Awaitable[Sequence[str]]]
"""The addresses a host name resolves to, as text."""


class AddressRefused(Exception):
    """An address an avatar may not be fetched from; the text, free of any query, is for the log."""


def address_for_log(url: str | httpx.URL) -> str:
    """The address without its query, which on image hosts often carries a signature.

    A user name and password written into the address are left out as well.
    """
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError):
        return "<unparsable address>"
    return str(parsed.copy_with(userinfo=b"", query=None, fragment=None))


async def system_lookup(host: str) -> list[str]:
    """The host's addresses from the operating system's resolver, without blocking the loop."""
    infos = await asyncio.get_running_loop().getaddrinfo(host, None, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


def is_forbidden_ip(ip: IPAddress) -> bool:
    """True for an address that is not on the public internet, IPv4 inside IPv6 included."""
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return is_forbidden_ip(ip.ipv4_mapped)  # a socket reaches that IPv4 address itself
        if ip in NAT64_PREFIX:
            # On an IPv6-only network every IPv4 host looks like this; judge the IPv4 address.
            return is_forbidden_ip(ipaddress.IPv4Address(int(ip) & 0xFFFF_FFFF))
        if ip.sixtofour is not None and is_forbidden_ip(ip.sixtofour):
            return True  # a 6to4 relay would deliver it to that IPv4 address
    return (
        ip.is_loopback
        or ip.is_link_local
        or ip.is_private
        or ip.is_unspecified
        or ip.is_multicast
        or ip.is_reserved
        or not ip.is_global
    )


def is_local_name(host: str) -> bool:
    """`localhost` and its subdomains always mean this computer (RFC 6761)."""
    name = host.rstrip(".").lower()
    return name == "localhost" or name.endswith(".localhost")


def _literal_ip(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def _web_url(url: str | httpx.URL) -> httpx.URL:
    """`url` parsed as the HTTP client will read it, if it is an absolute http(s) address."""
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError) as exc:
        raise AddressRefused(f"{address_for_log(url)}: not an address ({exc})") from None
    if parsed.scheme not in WEB_SCHEMES:
        raise AddressRefused(f"{address_for_log(parsed)}: not an http(s) address")
    if not parsed.host:
        raise AddressRefused(f"{address_for_log(parsed)}: no host")
    if parsed.port is not None and not 0 < parsed.port < 65536:
        raise AddressRefused(f"{address_for_log(parsed)}: no such port")
    return parsed


def _host_name(url: httpx.URL) -> str:
    """The host as it is resolved: IDNA-encoded, lower case, without a trailing dot."""
    return url.raw_host.decode("ascii").rstrip(".").lower()


async def is_private_server(server_url: str, lookup: Lookup | None = None) -> bool:
    """True when the API server is on an address its avatars would be refused from.

    Such a server (the demo server on loopback, a server on the local network) serves
    avatars from addresses like its own, so its loaders must allow private hosts. A
    host name is resolved; if that fails, the server counts as public, the safe side.
    """
    try:
        host = _host_name(_web_url(server_url))
    except AddressRefused:
        return False
    if is_local_name(host):
        return True
    ip = _literal_ip(host)
    if ip is not None:
        return is_forbidden_ip(ip)
    try:
        async with asyncio.timeout(SERVER_LOOKUP_SECONDS):
            found = await (lookup or system_lookup)(host)
    except (OSError, UnicodeError, TimeoutError):
        return False
    return any(ip is None or is_forbidden_ip(ip) for ip in map(_literal_ip, found))


class AvatarAddressPolicy:
    """The one set of rules for every avatar address and redirect; see the module's text.

    `check_form` decides what can be decided without the network (and so before
    anything is queued), `check` also resolves host names, and `redirect` gives the
    address a redirect leads to, if it may be followed at all.
    """

    def __init__(
        self,
        *,
        allow_private_hosts: bool = False,
        max_redirects: int = MAX_REDIRECTS,
        lookup: Lookup | None = None,
        verdict_seconds: float = HOST_VERDICT_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.allow_private_hosts = allow_private_hosts
        self.max_redirects = max_redirects
        self._lookup = lookup
        self._verdict_seconds = verdict_seconds
        self._clock = clock
        # host -> (when the verdict expires, why the host is refused or None)
        self._verdicts: dict[str, tuple[float, str | None]] = {}

    def check_form(self, url: str | httpx.URL) -> httpx.URL:
        """The parsed address, unless its scheme, or a host that needs no lookup, is refused."""
        parsed = _web_url(url)
        if self.allow_private_hosts:
            return parsed
        host = _host_name(parsed)
        if is_local_name(host):
            raise AddressRefused(f"{address_for_log(parsed)}: a name of this computer")
        ip = _literal_ip(host)
        if ip is not None and is_forbidden_ip(ip):
            raise AddressRefused(f"{address_for_log(parsed)}: not a public address")
        return parsed

    async def check(self, url: str | httpx.URL) -> httpx.URL:
        """The parsed address, once it and every address its host resolves to pass."""
        parsed = self.check_form(url)
        if self.allow_private_hosts:
            return parsed
        host = _host_name(parsed)
        if _literal_ip(host) is not None:
            return parsed  # already judged by `check_form`
        reason = await self._host_verdict(host)
        if reason is not None:
            raise AddressRefused(f"{address_for_log(parsed)}: {reason}")
        return parsed

    def redirect(self, current: str | httpx.URL, location: str, redirects: int) -> httpx.URL:
        """Where the `redirects`-th redirect from `current` to `location` leads, if allowed.

        `location` may be relative to `current`. The target still has to pass `check`.
        """
        source = httpx.URL(current)
        if redirects > self.max_redirects:
            raise AddressRefused(
                f"{address_for_log(source)}: more than {self.max_redirects} redirects"
            )
        try:
            target = httpx.URL(location)
            if target.scheme and target.scheme not in WEB_SCHEMES:
                raise AddressRefused(
                    f"{address_for_log(source)}: redirected to a {target.scheme}: address"
                )
            if target.scheme and not target.host:
                target = target.copy_with(host=source.host)  # "https:/x", as browsers read it
            if target.is_relative_url:
                target = source.join(target)
        except httpx.InvalidURL:
            raise AddressRefused(
                f"{address_for_log(source)}: redirected to an unreadable address"
            ) from None
        if source.scheme == "https" and target.scheme != "https":
            raise AddressRefused(
                f"{address_for_log(source)}: redirected from https to {address_for_log(target)}"
            )
        return self.check_form(target)

    async def _host_verdict(self, host: str) -> str | None:
        """Why `host` is refused, or None; a verdict is kept briefly, a failed lookup not."""
        now = self._clock()
        kept = self._verdicts.get(host)
        if kept is not None and kept[0] > now:
            return kept[1]
        try:
            found = await (self._lookup or system_lookup)(host)
        except (OSError, UnicodeError) as exc:
            return f"the host name cannot be resolved ({exc})"
        reason: str | None = None
        if not found:
            reason = "the host name resolves to no address"
        for text in found:
            ip = _literal_ip(text)
            if ip is None or is_forbidden_ip(ip):
                reason = f"the host name resolves to {text}, not a public address"
                break
        self._remember(host, now + self._verdict_seconds, reason)
        return reason

    def _remember(self, host: str, expires: float, reason: str | None) -> None:
        if len(self._verdicts) >= HOST_VERDICT_ENTRIES:
            now = self._clock()
            self._verdicts = {h: v for h, v in self._verdicts.items() if v[0] > now}
            while len(self._verdicts) >= HOST_VERDICT_ENTRIES:
                del self._verdicts[next(iter(self._verdicts))]
        self._verdicts[host] = (expires, reason)
