#!/usr/bin/env python3
"""Audits `strace -f -e trace=network` output for traffic that leaves the machine.

    strace_network_audit.py TRACE [TRACE...] [--expect-loopback-connect]

Every connect, sendto, sendmsg and sendmmsg call is read with the socket addresses strace
decoded in it (a call on an already connected socket names no address and is judged by its
connect). Allowed: AF_UNIX, AF_NETLINK (the C library asks the kernel about interfaces),
AF_UNSPEC (a disconnect), AF_INET 127.0.0.0/8 and AF_INET6 ::1 or ::ffff:127.x.y.z. Anything
else — another address, or another family such as AF_PACKET — is a violation, printed with its
line. Lines cut by `<unfinished ...>` still carry the address, so they are judged too; a
"resumed" line carries none.

With --expect-loopback-connect, at least one connect to a loopback address must be present (the
proof that the tracer saw the model request at all).

Exit status: 0 clean, 1 violations or a missing expected connect, 2 unreadable trace.
Tests only; never part of the product.
"""

import collections
import ipaddress
import re
import sys

CALL = re.compile(r"\b(connect|sendto|sendmsg|sendmmsg)\(")
FAMILY = re.compile(r"sa_family=(AF_[A-Z0-9]+)")
INET = re.compile(r'sin_addr=inet_addr\("([^"]*)"\)')
INET6 = re.compile(r'inet_pton\(AF_INET6,\s*"([^"]*)"')
ALLOWED_FAMILIES = {"AF_UNIX", "AF_LOCAL", "AF_NETLINK", "AF_UNSPEC"}


def loopback(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


def audit(lines):
    """Returns (violations, counts by (call, family), loopback connects)."""
    violations = []
    counts = collections.Counter()
    loopback_connects = 0
    for number, line in lines:
        match = CALL.search(line)
        if not match:  # includes "<... connect resumed>" lines, which carry no address
            continue
        call = match.group(1)
        families = FAMILY.findall(line)
        if not families:
            counts[(call, "no address")] += 1
            continue
        for family in families:
            counts[(call, family)] += 1
            if family in ALLOWED_FAMILIES:
                continue
            if family == "AF_INET":
                addresses = INET.findall(line)
            elif family == "AF_INET6":
                addresses = INET6.findall(line)
            else:
                violations.append((number, f"family {family} is not allowed", line))
                continue
            if not addresses:
                violations.append((number, f"{family} address could not be read", line))
            for address in addresses:
                if not loopback(address):
                    violations.append((number, f"{family} {address} is not loopback", line))
                elif call == "connect":
                    loopback_connects += 1
    return violations, counts, loopback_connects


SELF_TEST = [
    # (line, violations expected)
    ('1 connect(6, {sa_family=AF_UNIX, sun_path="/var/run/nscd/socket"}, 110) = -1 ENOENT', 0),
    ('2 connect(11, {sa_family=AF_INET, sin_port=htons(8080), sin_addr=inet_addr("127.0.0.1")}, 16) = 0', 0),
    ('3 connect(11, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("127.53.0.1")}, 16 <unfinished ...>', 0),
    ('4 sendto(3, "x", 20, 0, {sa_family=AF_NETLINK, nl_pid=0, nl_groups=00000000}, 12) = 20', 0),
    ('5 connect(7, {sa_family=AF_INET6, sin6_port=htons(80), sin6_flowinfo=htonl(0), '
     'inet_pton(AF_INET6, "::1", &sin6_addr), sin6_scope_id=0}, 28) = 0', 0),
    ('6 connect(7, {sa_family=AF_INET6, sin6_port=htons(80), sin6_flowinfo=htonl(0), '
     'inet_pton(AF_INET6, "::ffff:127.0.0.1", &sin6_addr), sin6_scope_id=0}, 28) = 0', 0),
    ('7 sendto(11, "POST / HTTP/1.1", 15, MSG_NOSIGNAL, NULL, 0) = 15', 0),
    ('8 <... connect resumed>) = 0', 0),
    ('9 connect(5, {sa_family=AF_UNSPEC, sa_data="\\0\\0"}, 16) = 0', 0),
    ('10 connect(11, {sa_family=AF_INET, sin_port=htons(3128), sin_addr=inet_addr("10.255.255.1")}, 16) = -1 ENETUNREACH', 1),
    ('11 sendto(4, "q", 1, 0, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("8.8.8.8")}, 16) = 1', 1),
    ('12 connect(7, {sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(0), '
     'inet_pton(AF_INET6, "2001:db8::1", &sin6_addr), sin6_scope_id=0}, 28 <unfinished ...>', 1),
    ('13 sendmsg(9, {msg_name={sa_family=AF_INET, sin_port=htons(123), sin_addr=inet_addr("192.168.1.1")}, '
     'msg_namelen=16, msg_iov=[]}, 0) = 0', 1),
    ('14 sendto(3, "x", 1, 0, {sa_family=AF_PACKET, sll_protocol=htons(ETH_P_ALL)}, 20) = 1', 1),
]


def self_test():
    """Checks the parser against known strace lines (loopback, AF_UNIX, AF_NETLINK, resumed and
    unfinished calls allowed; other addresses and families caught)."""
    bad = 0
    for line, expected in SELF_TEST:
        violations, _, _ = audit([("self-test", line)])
        if len(violations) != expected:
            print(f"SELF-TEST FAILED: {len(violations)} violation(s), expected {expected}: {line}")
            bad += 1
    print(f"strace audit self-test: {len(SELF_TEST) - bad} of {len(SELF_TEST)} lines judged correctly")
    return 1 if bad else 0


def main(argv):
    if "--self-test" in argv:
        return self_test()
    paths = [a for a in argv if not a.startswith("--")]
    expect_loopback = "--expect-loopback-connect" in argv
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    lines = []
    for path in paths:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                lines += [(f"{path}:{i}", l.rstrip("\n")) for i, l in enumerate(f, 1)]
        except OSError as e:
            print(f"cannot read {path}: {e}", file=sys.stderr)
            return 2
    violations, counts, loopback_connects = audit(lines)
    summary = ", ".join(f"{call} {family}: {n}" for (call, family), n in sorted(counts.items())) or "none"
    print(f"network calls seen in {len(lines)} trace lines: {summary}; loopback connects: {loopback_connects}")
    for where, reason, line in violations:
        print(f"VIOLATION {where}: {reason}: {line.strip()[:300]}")
    if expect_loopback and loopback_connects == 0:
        print("MISSING: no connect to a loopback address was traced (expected the model request)")
        return 1
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
