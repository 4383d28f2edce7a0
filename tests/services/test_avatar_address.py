"""The rules for avatar addresses and redirects, without Qt, sockets or a resolver."""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import subprocess
import sys
from collections.abc import Awaitable, Callable
from typing import TypeVar

import pytest

from cardviewer.services.avatar_address import (
    MAX_REDIRECTS,
    AddressRefused,
    AvatarAddressPolicy,
    address_for_log,
    is_forbidden_ip,
    is_local_name,
    is_private_server,
    system_lookup,
)

T = TypeVar("T")

PUBLIC_V4 = "93.184.215.14"
PUBLIC_V6 = "2606:2800:21f:cb07:6820:80da:af6b:8b2c"


def run(make: Callable[[], Awaitable[T]]) -> T:
    async def main() -> T:
        return await make()

    return asyncio.run(main())


class Resolver:
    """Made-up host names and their addresses; counts the lookups, fails for unknown names."""

    def __init__(self, names: dict[str, list[str]] | None = None) -> None:
        self.names = {"cdn.example": [PUBLIC_V4]} if names is None else names
        self.asked: list[str] = []

    async def __call__(self, host: str) -> list[str]:
        self.asked.append(host)
        if host not in self.names:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return self.names[host]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# Which addresses are not on the public internet


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "127.8.9.10",
        "::1",
        "10.0.0.1",
        "172.16.5.4",
        "192.168.0.1",
        "169.254.169.254",
        "100.64.0.1",
        "0.0.0.0",
        "::",
        "224.0.0.251",
        "ff02::1",
        "240.0.0.1",
        "255.255.255.255",
        "fe80::1",
        "fc00::1",
        "fd12:3456::1",
        "::ffff:127.0.0.1",
        "::ffff:10.0.0.1",
        "::ffff:169.254.169.254",
        "2002:7f00:1::",
        "64:ff9b::7f00:1",
        "192.0.2.1",
        "2001:db8::1",
    ],
)
def test_addresses_off_the_public_internet_are_forbidden(address):
    assert is_forbidden_ip(ipaddress.ip_address(address))


@pytest.mark.parametrize(
    "address", [PUBLIC_V4, "8.8.8.8", PUBLIC_V6, "::ffff:8.8.8.8", "64:ff9b::5db8:d70e"]
)
def test_public_addresses_are_allowed(address):
    assert not is_forbidden_ip(ipaddress.ip_address(address))


@pytest.mark.parametrize(
    ("name", "local"),
    [
        ("localhost", True),
        ("LOCALHOST.", True),
        ("a.b.localhost", True),
        ("localhost.example", False),
        ("notlocalhost", False),
        ("cdn.example", False),
    ],
)
def test_localhost_names_mean_this_computer(name, local):
    assert is_local_name(name) is local


# The form of an address


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "ftp://cdn.example/a.jpg",
        "data:image/png;base64,AAAA",
        "javascript:alert(1)",
        "a.jpg",
        "//cdn.example/a.jpg",
        "http://",
        "https://cdn.example:99999/a.jpg",
    ],
)
def test_only_absolute_web_addresses_pass(url):
    with pytest.raises(AddressRefused):
        AvatarAddressPolicy().check_form(url)
    with pytest.raises(AddressRefused):
        AvatarAddressPolicy(allow_private_hosts=True).check_form(url)


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8081/a.png",
        "https://[::1]/a.png",
        "https://[::ffff:7f00:1]/a.png",
        "http://169.254.169.254/latest/meta-data/",
        "https://10.1.2.3/a.png",
        "https://localhost/a.png",
        "https://LocalHost./a.png",
        "https://img.localhost/a.png",
    ],
)
def test_private_hosts_are_refused_by_their_form(url):
    with pytest.raises(AddressRefused):
        AvatarAddressPolicy().check_form(url)
    assert AvatarAddressPolicy(allow_private_hosts=True).check_form(url)


def test_the_reason_names_the_address_without_its_query():
    with pytest.raises(AddressRefused) as refused:
        AvatarAddressPolicy().check_form("https://10.0.0.1/a.png?sig=s3cret#part")
    assert "https://10.0.0.1/a.png" in str(refused.value)
    assert "s3cret" not in str(refused.value)
    assert address_for_log("https://cdn.example/a.png?sig=s3cret") == "https://cdn.example/a.png"
    assert address_for_log("https://me:pw@cdn.example:8443/a?b") == "https://cdn.example:8443/a"


# Host names are resolved, every address counts, and the verdict is kept briefly


def test_a_public_host_name_passes():
    resolver = Resolver()
    url = run(lambda: AvatarAddressPolicy(lookup=resolver).check("https://CDN.example/a.png"))
    assert url.host == "cdn.example"
    assert resolver.asked == ["cdn.example"]


@pytest.mark.parametrize(
    "addresses",
    [["127.0.0.1"], ["::1"], [PUBLIC_V4, "10.0.0.1"], [PUBLIC_V6, "fe80::1"], [], ["not-an-ip"]],
)
def test_a_host_name_with_any_private_address_is_refused(addresses):
    policy = AvatarAddressPolicy(lookup=Resolver({"cdn.example": addresses}))
    with pytest.raises(AddressRefused):
        run(lambda: policy.check("https://cdn.example/a.png"))


def test_a_host_name_that_does_not_resolve_is_refused():
    with pytest.raises(AddressRefused, match="cannot be resolved"):
        run(lambda: AvatarAddressPolicy(lookup=Resolver()).check("https://nowhere.example/a"))


def test_the_verdict_on_a_host_is_kept_briefly():
    resolver = Resolver({"cdn.example": [PUBLIC_V4], "evil.example": ["127.0.0.1"]})
    clock = Clock()
    policy = AvatarAddressPolicy(lookup=resolver, verdict_seconds=60, clock=clock)

    async def check_all() -> None:
        for name in ("a", "b"):
            await policy.check(f"https://cdn.example/{name}.png")
            with pytest.raises(AddressRefused):
                await policy.check(f"https://evil.example/{name}.png")

    run(check_all)
    assert resolver.asked == ["cdn.example", "evil.example"]
    clock.now += 61
    resolver.names["evil.example"] = [PUBLIC_V4]  # what a host resolves to may change
    run(lambda: policy.check("https://evil.example/a.png"))
    assert resolver.asked == ["cdn.example", "evil.example", "evil.example"]


def test_a_failed_lookup_is_not_kept():
    resolver = Resolver({})
    policy = AvatarAddressPolicy(lookup=resolver)
    for _ in range(2):
        with pytest.raises(AddressRefused):
            run(lambda: policy.check("https://cdn.example/a.png"))
    assert resolver.asked == ["cdn.example", "cdn.example"]


def test_literal_addresses_and_private_servers_need_no_lookup():
    resolver = Resolver({})
    run(lambda: AvatarAddressPolicy(lookup=resolver).check(f"https://{PUBLIC_V4}/a.png"))
    allowed = AvatarAddressPolicy(allow_private_hosts=True, lookup=resolver)
    run(lambda: allowed.check("https://nowhere.example/a.png"))
    assert resolver.asked == []


def test_the_system_resolver_reads_literal_addresses_without_the_network():
    assert run(lambda: system_lookup("127.0.0.1")) == ["127.0.0.1"]


# Redirects


def test_a_relative_redirect_is_read_against_the_current_address():
    policy = AvatarAddressPolicy()
    current = "https://cdn.example/avatars/a.png?sig=1"
    assert str(policy.redirect(current, "b.png", 1)) == "https://cdn.example/avatars/b.png"
    assert str(policy.redirect(current, "/v2/a.png?x=2", 1)) == "https://cdn.example/v2/a.png?x=2"
    assert str(policy.redirect(current, "//img.example/a.png", 1)) == "https://img.example/a.png"


def test_redirects_may_go_up_to_https_but_never_down_to_http():
    policy = AvatarAddressPolicy()
    assert policy.redirect("http://cdn.example/a", "https://cdn.example/a", 1).scheme == "https"
    with pytest.raises(AddressRefused, match=r"from https to http://cdn\.example/a$"):
        policy.redirect("https://cdn.example/a", "http://cdn.example/a?sig=1", 1)
    with pytest.raises(AddressRefused):
        AvatarAddressPolicy(allow_private_hosts=True).redirect(
            "https://127.0.0.1/a", "http://127.0.0.1/a", 1
        )


@pytest.mark.parametrize(
    "location",
    ["file:///etc/passwd", "ftp://cdn.example/a", "data:,x", "javascript:alert(1)", "gopher://x"],
)
def test_redirects_to_other_schemes_are_refused(location):
    with pytest.raises(AddressRefused):
        AvatarAddressPolicy(allow_private_hosts=True).redirect("http://cdn.example/a", location, 1)


@pytest.mark.parametrize(
    "location",
    ["https://127.0.0.1/a", "https://[::1]/a", "http://169.254.169.254/", "https://localhost/"],
)
def test_redirects_to_private_hosts_are_refused(location):
    with pytest.raises(AddressRefused):
        AvatarAddressPolicy().redirect("http://cdn.example/a", location, 1)
    AvatarAddressPolicy(allow_private_hosts=True).redirect("http://cdn.example/a", location, 1)


def test_only_a_few_redirects_are_followed():
    policy = AvatarAddressPolicy()
    assert policy.redirect("https://cdn.example/a", "/b", MAX_REDIRECTS)
    with pytest.raises(AddressRefused, match="redirects"):
        policy.redirect("https://cdn.example/a", "/b", MAX_REDIRECTS + 1)


# Whether the API server is on a private address (its loaders then allow private hosts)


@pytest.mark.parametrize(
    ("server_url", "private"),
    [
        ("http://127.0.0.1:8080", True),
        ("http://[::1]:8080/", True),
        ("http://localhost:8080", True),
        ("https://192.168.1.20/api", True),
        ("https://intranet.example", True),
        (f"https://{PUBLIC_V4}", False),
        ("https://api.example.com", False),
        ("https://nowhere.example", False),
        ("not a url", False),
    ],
)
def test_a_server_on_a_private_address_is_recognised(server_url, private):
    resolver = Resolver({"intranet.example": ["10.0.0.5"], "api.example.com": [PUBLIC_V4]})
    assert run(lambda: is_private_server(server_url, lookup=resolver)) is private


def test_the_rules_need_no_qt():
    check = (
        "import sys, cardviewer.services.avatar_address\n"
        "sys.exit(any(m.startswith(('PySide6', 'shiboken6', 'qasync')) for m in sys.modules))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", check], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_three_redirects_are_followed_and_no_fourth():
    """An avatar may take up to three redirects."""
    policy = AvatarAddressPolicy()
    assert policy.redirect("https://cdn.example/a", "/b", 3)
    with pytest.raises(AddressRefused, match="more than 3 redirects"):
        policy.redirect("https://cdn.example/a", "/b", 4)


def test_a_verdict_is_kept_for_a_minute_by_default():
    """Without `verdict_seconds`, a host is looked up again once 60 seconds have passed."""
    resolver = Resolver()
    clock = Clock()
    policy = AvatarAddressPolicy(lookup=resolver, clock=clock)
    run(lambda: policy.check("https://cdn.example/a.png"))
    clock.now += 59.5
    run(lambda: policy.check("https://cdn.example/a.png"))
    assert resolver.asked == ["cdn.example"]
    clock.now += 0.5
    run(lambda: policy.check("https://cdn.example/a.png"))
    assert resolver.asked == ["cdn.example", "cdn.example"]


def test_at_most_256_verdicts_are_kept_the_oldest_going_first():
    """The 257th host name pushes out the verdict on the first one."""
    hosts = [f"h{n}.example" for n in range(257)]
    resolver = Resolver({host: [PUBLIC_V4] for host in hosts})
    policy = AvatarAddressPolicy(lookup=resolver, clock=Clock())

    async def check(*names: str) -> None:
        for name in names:
            await policy.check(f"https://{name}/a.png")

    run(lambda: check(*hosts[:256], hosts[0]))
    assert resolver.asked == hosts[:256]
    run(lambda: check(hosts[256], hosts[1], hosts[0]))
    assert resolver.asked == [*hosts[:257], hosts[0]]


@pytest.mark.parametrize("later", [1070.0, 1075.0])
def test_a_refreshed_verdict_outlives_expired_ones_when_the_list_is_full(later):
    """A full list drops expired verdicts first, so a host looked up again stays known."""
    clock = Clock()
    others = [f"h{n}.example" for n in range(1, 255)]
    names = {name: [PUBLIC_V4] for name in [*others, "a.example", "b.example", "c.example"]}
    resolver = Resolver(names)
    policy = AvatarAddressPolicy(lookup=resolver, verdict_seconds=60, clock=clock)

    async def check(*hosts: str) -> None:
        for host in hosts:
            await policy.check(f"https://{host}/a.png")

    run(lambda: check("a.example"))  # kept until 1060
    clock.now = 1010.0
    run(lambda: check(*others))  # 254 more, kept until 1070
    clock.now = 1065.0
    run(lambda: check("a.example"))  # looked up again, kept until 1125
    clock.now = later  # the 254 others have expired
    run(lambda: check("b.example", "c.example", "a.example"))
    assert resolver.asked.count("a.example") == 2


def test_the_reason_names_the_first_address_that_is_not_public():
    """Of several private addresses a host resolves to, the first is named."""
    policy = AvatarAddressPolicy(lookup=Resolver({"cdn.example": ["10.0.0.1", "127.0.0.1"]}))
    with pytest.raises(AddressRefused, match=r"resolves to 10\.0\.0\.1, not a public address"):
        run(lambda: policy.check("https://cdn.example/a.png"))


@pytest.mark.parametrize(
    ("port", "allowed"), [(-1, False), (0, False), (1, True), (65535, True), (65536, False)]
)
def test_ports_from_1_to_65535_pass(port, allowed):
    """Port 0, a negative port and ports past 65535 are no ports."""
    url = f"https://cdn.example:{port}/a.png"
    if allowed:
        assert AvatarAddressPolicy().check_form(url).port == port
    else:
        with pytest.raises(AddressRefused, match="no such port"):
            AvatarAddressPolicy().check_form(url)


def test_nat64_addresses_are_judged_by_their_last_32_bits():
    """64:ff9b::/96 carries an IPv4 address in its last 32 bits, and that is what is judged."""
    assert not is_forbidden_ip(ipaddress.ip_address("64:ff9b::99b:65"))  # 9.155.0.101
    assert is_forbidden_ip(ipaddress.ip_address("64:ff9b::a00:1"))  # 10.0.0.1


def test_something_that_is_no_address_is_refused_and_logged_as_such():
    """A value that is not text or a URL at all is refused, and the log says it is unparsable."""
    assert address_for_log(123) == "<unparsable address>"  # type: ignore[arg-type]
    with pytest.raises(AddressRefused, match="not an address"):
        AvatarAddressPolicy().check_form(None)  # type: ignore[arg-type]


def test_the_policys_options_are_only_taken_by_name():
    """`allow_private_hosts` given by position is refused, not taken silently."""
    with pytest.raises(TypeError):
        AvatarAddressPolicy(True)  # type: ignore[call-arg]


@pytest.mark.parametrize(("seconds", "private"), [(4.9, True), (5.1, False)])
def test_the_servers_own_lookup_may_take_five_seconds(monkeypatch, seconds, private):
    """A lookup of the server's name that takes longer than 5 seconds counts as public."""

    async def slow_lookup(host: str) -> list[str]:
        loop = asyncio.get_running_loop()
        real = loop.time
        monkeypatch.setattr(loop, "time", lambda: real() + seconds)  # `seconds` have passed
        for _ in range(3):
            await asyncio.sleep(0)  # a timeout that is due now fires
        return ["10.0.0.5"]

    assert run(lambda: is_private_server("https://intranet.example", slow_lookup)) is private
