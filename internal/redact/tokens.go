package redact

import "strings"

// This file knows API keys and tokens by their format, wherever they stand:
// a fixed prefix and a tail of a known alphabet and least length, as the
// public secret-scanning rule sets describe each vendor's keys, and a few
// formats without a prefix (JWTs, Azure client secrets, Discord bot tokens,
// Telegram bot tokens, Mailchimp keys).

// An alphabet is a set of bytes a token's tail is made of.
type alphabet [256]bool

func alphabetOf(sets ...string) *alphabet {
	var a alphabet
	for _, set := range sets {
		for i := 0; i < len(set); i++ {
			a[set[i]] = true
		}
	}
	return &a
}

const (
	upperSet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	lowerSet = "abcdefghijklmnopqrstuvwxyz"
	digitSet = "0123456789"
	hexSet   = "0123456789abcdef"
)

var (
	alnum     = alphabetOf(upperSet, lowerSet, digitSet)
	base64url = alphabetOf(upperSet, lowerSet, digitSet, "-_")
	base64std = alphabetOf(upperSet, lowerSet, digitSet, "+/=")
	hexLower  = alphabetOf(hexSet)
	upperNum  = alphabetOf(upperSet, digitSet)
	// wordTail is base64url and the dots of dotted tokens (SendGrid's
	// SG.x.y, Vault's hvs.x, Mapbox's sk.eyJ…).
	wordTail = alphabetOf(upperSet, lowerSet, digitSet, "-_.")
)

// A tokenFormat is a kind of API key or token that is secret wherever it
// appears: prefix, then at least min bytes of tail. check, when set, must
// also approve the tail.
type tokenFormat struct {
	prefix string
	tail   *alphabet
	min    int
	check  func(tail string) bool
}

// tokenFormats are the prefixed formats of widely used services. The least
// lengths are below the real ones (a GitHub token has 36 bytes after ghp_),
// so that a token cut short in a message is still caught, and high enough
// that no word of prose is taken for one.
var tokenFormats = []tokenFormat{
	// Cloud providers. AWS access key ids: four letters, then 16 capitals
	// and digits.
	{"AKIA", upperNum, 16, nil}, {"ASIA", upperNum, 16, nil}, {"ABIA", upperNum, 16, nil},
	{"ACCA", upperNum, 16, nil}, {"A3T", upperNum, 17, nil},
	{"AIza", base64url, 30, nil},   // Google API keys
	{"ya29.", base64url, 20, nil},  // Google OAuth access tokens
	{"dop_v1_", hexLower, 40, nil}, // DigitalOcean
	{"doo_v1_", hexLower, 40, nil}, // DigitalOcean OAuth
	{"dor_v1_", hexLower, 40, nil}, // DigitalOcean refresh
	{"dapi", hexLower, 32, nil},    // Databricks
	{"sbp_", hexLower, 40, nil},    // Supabase
	{"pul-", hexLower, 40, nil},    // Pulumi
	{"hvs.", wordTail, 24, nil},    // HashiCorp Vault service tokens
	{"hvb.", wordTail, 24, nil},    // HashiCorp Vault batch tokens
	{"dp.pt.", alnum, 32, nil},     // Doppler
	{"dp.st.", wordTail, 32, nil},  // Doppler service tokens
	{"NRAK-", upperNum, 20, nil},   // New Relic user keys
	{"glsa_", wordTail, 32, nil},   // Grafana service accounts
	{"glc_", base64std, 32, nil},   // Grafana Cloud
	{"AGE-SECRET-KEY-1", upperNum, 50, nil},

	// Version control.
	{"ghp_", alnum, 8, nil}, {"gho_", alnum, 8, nil}, {"ghu_", alnum, 8, nil},
	{"ghs_", alnum, 8, nil}, {"ghr_", alnum, 8, nil}, {"github_pat_", base64url, 8, nil},
	{"glpat-", base64url, 8, nil}, {"gldt-", base64url, 16, nil}, {"glrt-", base64url, 16, nil},
	{"glptt-", base64url, 16, nil}, {"glcbt-", base64url, 16, nil}, {"glimt-", base64url, 16, nil},

	// Chat.
	{"xoxa-", base64url, 8, nil}, {"xoxb-", base64url, 8, nil}, {"xoxp-", base64url, 8, nil},
	{"xoxr-", base64url, 8, nil}, {"xoxs-", base64url, 8, nil}, {"xoxe-", base64url, 8, nil},
	{"xoxe.xoxp-", base64url, 8, nil}, {"xapp-", base64url, 16, nil},

	// Package registries.
	{"npm_", alnum, 30, nil},
	{"pypi-AgE", base64url, 40, nil},
	{"hf_", alnum, 30, nil},
	{"rubygems_", hexLower, 40, nil},
	{"dckr_pat_", base64url, 20, nil},

	// Payment and mail.
	{"sk_live_", alnum, 8, nil}, {"sk_test_", alnum, 8, nil}, {"rk_live_", alnum, 8, nil},
	{"rk_test_", alnum, 8, nil}, {"pk_live_", alnum, 16, nil}, {"whsec_", alnum, 24, nil},
	{"SG.", wordTail, 60, nil},      // SendGrid
	{"key-", hexLower, 32, nil},     // Mailgun
	{"SK", hexLower, 32, exactly32}, // Twilio API keys
	{"xkeysib-", base64url, 60, nil},
	{"sq0atp-", base64url, 20, nil}, {"sq0csp-", base64url, 40, nil}, // Square
	{"shpat_", hexLower, 32, nil}, {"shpss_", hexLower, 32, nil}, // Shopify
	{"shpca_", hexLower, 32, nil}, {"shppa_", hexLower, 32, nil},
	{"access_token$production$", wordTailDollar, 32, nil}, // Braintree

	// AI and other APIs. OpenAI, Anthropic and others start with sk-: long,
	// with a digit or a capital, so that a hyphenated word is not one.
	{"sk-", base64url, 16, hasDigitOrUpper},
	{"sk.eyJ", wordTail, 40, nil}, // Mapbox
	{"gsk_", alnum, 40, nil},      // Groq
	{"pplx-", alnum, 40, nil},     // Perplexity
	{"r8_", alnum, 30, nil},       // Replicate
	{"xai-", alnum, 40, nil},      // xAI
	{"lin_api_", alnum, 32, nil},  // Linear
	{"ntn_", alnum, 40, nil},      // Notion
	{"PMAK-", base64url, 50, nil}, // Postman
	{"sntrys_", base64std, 40, nil},
	{"sntryu_", hexLower, 64, nil}, // Sentry
	{"pscale_tkn_", base64url, 32, nil}, {"pscale_pw_", base64url, 32, nil},
}

var wordTailDollar = alphabetOf(upperSet, lowerSet, digitSet, "-_.$")

func exactly32(tail string) bool { return len(tail) == 32 }

func hasDigitOrUpper(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' })
}

// formatsByFirst indexes tokenFormats by the first byte of their prefix.
var formatsByFirst = func() (by [256][]*tokenFormat) {
	for i := range tokenFormats {
		f := &tokenFormats[i]
		by[f.prefix[0]] = append(by[f.prefix[0]], f)
	}
	return by
}()

// tokenAt reports whether a token of a known format starts at s[i], the
// start of a word, and where it ends. A match that fails costs at most the
// prefix and min bytes, so that a scan that meets many is still linear.
func tokenAt(s string, i int) (int, bool) {
	for _, f := range formatsByFirst[s[i]] {
		if i+len(f.prefix) > len(s) || s[i+1] != f.prefix[1] || s[i:i+len(f.prefix)] != f.prefix {
			continue
		}
		if e, ok := f.tailAt(s, i+len(f.prefix)); ok {
			return e, true
		}
	}
	return unprefixedTokenAt(s, i)
}

// tailAt reports whether the tail of a token of format f starts at
// s[start], after its prefix, and where it ends.
func (f *tokenFormat) tailAt(s string, start int) (int, bool) {
	e := start
	for e < len(s) && f.tail[s[e]] {
		e++
	}
	// A dot is part of some tails, never their last byte: it ends the
	// sentence.
	for e > start && s[e-1] == '.' {
		e--
	}
	if e-start >= f.min && (f.check == nil || f.check(s[start:e])) {
		return e, true
	}
	return 0, false
}

// unprefixedTokenAt reports whether a token of a format without a fixed
// prefix starts at s[i], and where it ends; each format is tried only
// where its first byte may start one.
func unprefixedTokenAt(s string, i int) (int, bool) {
	switch c := s[i]; {
	case c == 'e':
		return jwtAt(s, i)
	case c >= '0' && c <= '9':
		if e, ok := telegramAt(s, i); ok {
			return e, true
		}
		return mailchimpAt(s, i)
	case c >= 'a' && c <= 'f':
		return mailchimpAt(s, i)
	}
	if e, ok := azureSecretAt(s, i); ok {
		return e, true
	}
	if c := s[i]; c == 'M' || c == 'N' || c == 'O' {
		return discordBotAt(s, i)
	}
	return 0, false
}

// jwtAt reports whether a JWT (header.payload.signature, or a cut one) or
// other base64 JSON starts at s[i] (`{"` encodes as eyJ; no word starts so),
// and where it ends: its dot-separated segments go with it, across empty
// ones ("a..b"), but not a sentence's final dot. The length is checked
// before the segments are taken, so that a run of short "eyJ." words is not
// read again and again.
func jwtAt(s string, i int) (int, bool) {
	j := i
	for j < len(s) && isWordByte(s[j]) {
		j++
	}
	if j-i < 10 || !strings.HasPrefix(s[i:], "eyJ") {
		return 0, false
	}
	e := j
	for e < len(s) && s[e] == '.' {
		k := e
		for k < len(s) && s[k] == '.' {
			k++
		}
		if k == len(s) || !isWordByte(s[k]) {
			break
		}
		for e = k; e < len(s) && isWordByte(s[e]); e++ {
		}
	}
	return e, true
}

// run returns the end of the run of bytes of a that starts at s[i], read
// no further than limit bytes.
func run(s string, i int, a *alphabet, limit int) int {
	e := i
	for e < len(s) && e-i < limit && a[s[e]] {
		e++
	}
	return e
}

// telegramAt: a Telegram bot token, 8 to 10 digits, a colon, then 35
// base64url bytes.
func telegramAt(s string, i int) (int, bool) {
	d := run(s, i, digits, 11)
	if n := d - i; n < 8 || n > 10 || d >= len(s) || s[d] != ':' {
		return 0, false
	}
	e := run(s, d+1, base64url, 64)
	if e-(d+1) < 35 {
		return 0, false
	}
	return e, true
}

var digits = alphabetOf(digitSet)

// mailchimpAt: a Mailchimp API key, 32 lower-case hex digits, "-us" and the
// number of a data centre.
func mailchimpAt(s string, i int) (int, bool) {
	h := run(s, i, hexLower, 33)
	if h-i != 32 || !strings.HasPrefix(s[h:], "-us") {
		return 0, false
	}
	e := run(s, h+3, digits, 3)
	if e == h+3 {
		return 0, false
	}
	return e, true
}

var azureTail = alphabetOf(upperSet, lowerSet, digitSet, "_~.-")

// azureSecretAt: a Microsoft Entra (Azure AD) client secret, three bytes, a
// digit, "Q~", then 31 to 34 more.
func azureSecretAt(s string, i int) (int, bool) {
	if i+6 > len(s) || s[i+3] < '0' || s[i+3] > '9' || s[i+4] != 'Q' || s[i+5] != '~' {
		return 0, false
	}
	for k := i; k < i+3; k++ {
		if !azureTail[s[k]] || s[k] == '-' {
			return 0, false
		}
	}
	e := run(s, i+6, azureTail, 40)
	if e-(i+6) < 31 {
		return 0, false
	}
	return e, true
}

// discordBotAt: a Discord bot token, the base64 of the bot's id (M, N or O
// and 23 to 25 more), a dot, 6 bytes, a dot, and 27 or more.
func discordBotAt(s string, i int) (int, bool) {
	a := run(s, i, base64url, 27)
	if n := a - i; n < 24 || n > 26 || a >= len(s) || s[a] != '.' {
		return 0, false
	}
	b := run(s, a+1, base64url, 8)
	if b-(a+1) != 6 || b >= len(s) || s[b] != '.' {
		return 0, false
	}
	e := run(s, b+1, base64url, 64)
	if e-(b+1) < 27 {
		return 0, false
	}
	return e, true
}
