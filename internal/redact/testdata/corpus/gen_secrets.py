# Generates secrets.txt from secrets.tmpl: fake secrets, random values drawn
# from the alphabet and length public secret-scanning rule sets give for each
# format, in contexts written by hand. Never real keys. Seeded: the output is
# the same on every run.
#
#   python3 gen_secrets.py secrets.tmpl secrets.txt
import random, base64, json, string, uuid
R = random.Random(35)
UP, LO, DI = string.ascii_uppercase, string.ascii_lowercase, string.digits
AN = UP + LO + DI
B64 = AN + "+/"
B64URL = AN + "-_"
HEX = "0123456789abcdef"
def r(alpha, n): return "".join(R.choice(alpha) for _ in range(n))
def mixed(alpha, n):
    while True:
        s = r(alpha, n)
        if any(c in UP for c in s) + any(c in LO for c in s) + any(c in DI for c in s) >= min(3, sum(1 for a in (UP, LO, DI) if set(a) & set(alpha))):
            return s
def b64u(b): return base64.urlsafe_b64encode(b).decode().rstrip("=")
def jwt(claims):
    h = b64u(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    p = b64u(json.dumps(claims, separators=(",", ":")).encode())
    return h + "." + p + "." + b64u(bytes(R.randrange(256) for _ in range(32)))
def pem_body(lines=3, width=64):
    return "⏎".join(mixed(B64, width) for _ in range(lines))
def u(): return str(uuid.UUID(int=R.getrandbits(128), version=4))
def pw(n=12):
    while True:
        s = r(AN + "!#%*+-.=?@^_~", n)
        if any(c in UP for c in s) and any(c in LO for c in s) and any(c in DI for c in s):
            return s

G = {
 "akia": lambda: "AKIA" + r(UP + "234567", 16),
 "asia": lambda: "ASIA" + r(UP + "234567", 16),
 "awssecret": lambda: mixed(B64, 40),
 "awssession": lambda: "IQoJb3JpZ2luX2VjE" + mixed(B64, 240),
 "azurekey": lambda: mixed(B64, 86) + "==",
 "sbkey": lambda: mixed(B64, 43) + "=",
 "azsecret": lambda: r(AN, 3) + R.choice(DI) + "Q~" + mixed(AN + "_~.-", 34),
 "aiza": lambda: "AIza" + mixed(B64URL, 35),
 "ya29": lambda: "ya29." + mixed(B64URL, 120),
 "ghp": lambda: "ghp_" + mixed(AN, 36),
 "gho": lambda: "gho_" + mixed(AN, 36),
 "ghu": lambda: "ghu_" + mixed(AN, 36),
 "ghs": lambda: "ghs_" + mixed(AN, 36),
 "ghr": lambda: "ghr_" + mixed(AN, 36),
 "ghpat": lambda: "github_pat_11" + mixed(UP + DI, 20) + "_" + mixed(AN, 59),
 "glpat": lambda: "glpat-" + mixed(AN + "-_", 20),
 "glrt": lambda: "glrt-" + mixed(AN + "-_", 20),
 "xoxb": lambda: "xoxb-" + r(DI, 12) + "-" + r(DI, 13) + "-" + mixed(AN, 24),
 "xoxp": lambda: "xoxp-" + r(DI, 12) + "-" + r(DI, 12) + "-" + r(DI, 13) + "-" + r(HEX, 32),
 "xapp": lambda: "xapp-1-A" + r(UP + DI, 10) + "-" + r(DI, 13) + "-" + r(HEX, 64),
 "slackhook": lambda: mixed(AN, 24),
 "slackT": lambda: "T" + r(UP + DI, 10), "slackB": lambda: "B" + r(UP + DI, 10),
 "discordid": lambda: r(DI, 19),
 "discordhook": lambda: mixed(B64URL, 68),
 "discordbot": lambda: "M" + mixed(AN, 25) + "." + mixed(B64URL, 6) + "." + mixed(B64URL, 38),
 "teamshex": lambda: r(HEX, 32),
 "uuid": u,
 "telegram": lambda: r(DI, 10) + ":AA" + mixed(B64URL, 33),
 "zapier": lambda: mixed(LO + DI, 7),
 "npm": lambda: "npm_" + mixed(AN, 36),
 "pypi": lambda: "pypi-AgEIcHlwaS5vcmc" + mixed(B64URL, 70),
 "hf": lambda: "hf_" + mixed(UP + LO, 34),
 "rubygems": lambda: "rubygems_" + r(HEX, 48),
 "dckr": lambda: "dckr_pat_" + mixed(B64URL, 27),
 "sklive": lambda: "sk_live_" + mixed(AN, 99),
 "sktest": lambda: "sk_test_" + mixed(AN, 24),
 "rklive": lambda: "rk_live_" + mixed(AN, 24),
 "pklive": lambda: "pk_live_" + mixed(AN, 24),
 "whsec": lambda: "whsec_" + mixed(AN, 32),
 "sendgrid": lambda: "SG." + mixed(B64URL, 22) + "." + mixed(B64URL, 43),
 "mailgun": lambda: "key-" + r(HEX, 32),
 "twiliosk": lambda: "SK" + r(HEX, 32),
 "hex32": lambda: r(HEX, 32),
 "hex40": lambda: r(HEX, 40),
 "hex64": lambda: r(HEX, 64),
 "mailchimp": lambda: r(HEX, 32) + "-us" + str(R.randrange(1, 21)),
 "dop": lambda: "dop_v1_" + r(HEX, 64),
 "openai": lambda: "sk-proj-" + mixed(B64URL, 74) + "T3BlbkFJ" + mixed(B64URL, 74),
 "openai48": lambda: "sk-" + mixed(AN, 20) + "T3BlbkFJ" + mixed(AN, 20),
 "anthropic": lambda: "sk-ant-api03-" + mixed(B64URL, 93) + "AA",
 "shpat": lambda: "shpat_" + r(HEX, 32),
 "glsa": lambda: "glsa_" + mixed(AN, 32) + "_" + r(HEX, 8),
 "linear": lambda: "lin_api_" + mixed(AN, 40),
 "notion": lambda: "ntn_" + mixed(AN, 46),
 "postman": lambda: "PMAK-" + r(HEX, 24) + "-" + r(HEX, 34),
 "vault": lambda: "hvs." + mixed(B64URL, 90),
 "doppler": lambda: "dp.pt." + mixed(AN, 43),
 "newrelic": lambda: "NRAK-" + r(UP + DI, 27),
 "groq": lambda: "gsk_" + mixed(AN, 52),
 "age": lambda: "AGE-SECRET-KEY-1" + r("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58),
 "databricks": lambda: "dapi" + r(HEX, 32),
 "supabase": lambda: "sbp_" + r(HEX, 40),
 "pulumi": lambda: "pul-" + r(HEX, 40),
 "square": lambda: "sq0atp-" + mixed(B64URL, 22),
 "squaresecret": lambda: "sq0csp-" + mixed(B64URL, 43),
 "mapbox": lambda: "sk.eyJ1Ijoi" + mixed(AN, 40) + "." + mixed(B64URL, 22),
 "xai": lambda: "xai-" + mixed(AN, 80),
 "sentryauth": lambda: "sntrys_" + mixed(AN, 60),
 "jwt": lambda: jwt({"sub": str(R.randrange(10**6)), "iat": 1767225600 + R.randrange(10**6), "scope": "read"}),
 "jwt2": lambda: jwt({"iss": "https://auth.example.com/", "aud": "mcp", "exp": 1767225600 + R.randrange(10**6)}),
 "opaque": lambda: mixed(B64URL, 43),
 "opaque32": lambda: mixed(AN, 32),
 "pw": pw,
 "pwu": lambda: mixed(AN + "-._~", 14),
 "pw8": lambda: pw(8),
 "pw16": lambda: pw(16),
 "b64": lambda: mixed(B64, 44),
 "sid": lambda: mixed(AN, 32),
 "pem": pem_body,
 "pemj": lambda: "\\n".join(mixed(B64, 64) for _ in range(3)),
 "pemy": lambda: "⏎  ".join(mixed(B64, 64) for _ in range(3)),
 "ssn": lambda: r(DI, 3) + "-" + r(DI, 2) + "-" + r(DI, 4),
 "digits16": lambda: r(DI, 16),
}

def basic(user):
    p = pw(14)
    return base64.b64encode((user + ":" + p).encode()).decode()
G["basic"] = lambda: basic("ann")
G["basic2"] = lambda: basic("deploy-bot")

import re, sys
src = open(sys.argv[1]).read()
out = []
for line in src.splitlines():
    if not line.strip() or line.startswith("#"):
        out.append(line); continue
    # {kind} in a template is a fresh secret of that kind, marked ⟦…⟧;
    # {=kind} is a fresh value of that kind, not marked (not secret).
    def sub(m):
        k = m.group(1)
        if k.startswith("="):
            return G[k[1:]]()
        return "⟦" + G[k]() + "⟧"
    out.append(re.sub(r"\{(=?[a-z0-9]+)\}", sub, line))
open(sys.argv[2], "w").write("\n".join(out) + "\n")
