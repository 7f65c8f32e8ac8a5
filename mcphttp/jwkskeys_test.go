package mcphttp

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"math/big"
	"testing"

	"github.com/golang-jwt/jwt/v5"
)

// TestKeySetFind: a token's key is the one its kid names, when that key is
// for the token's algorithm; a token without kid is checked against every
// key fit for its algorithm (those that name it, or none). Keys that are
// not for signatures are left out of the set, and of two keys with one
// kid the first is kept.
func TestKeySetFind(t *testing.T) {
	jwk := func(k *rsa.PrivateKey, kid, alg, use string) map[string]string {
		m := map[string]string{"kty": "RSA", "kid": kid, "n": base64.RawURLEncoding.EncodeToString(k.N.Bytes()),
			"e": base64.RawURLEncoding.EncodeToString(big.NewInt(int64(k.E)).Bytes())}
		if alg != "" {
			m["alg"] = alg
		}
		if use != "" {
			m["use"] = use
		}
		return m
	}
	var keys [3]*rsa.PrivateKey
	for i := range keys {
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			t.Fatal(err)
		}
		keys[i] = k
	}
	parse := func(set ...map[string]string) *keySet {
		t.Helper()
		body, _ := json.Marshal(map[string]any{"keys": set})
		ks, err := parseKeySet(body)
		if err != nil {
			t.Fatal(err)
		}
		return ks
	}
	ks := parse(jwk(keys[0], "a", "RS256", "sig"), jwk(keys[1], "a", "RS256", "sig"), jwk(keys[1], "b", "RS384", ""),
		jwk(keys[2], "c", "", "sig"), jwk(keys[2], "e", "RS256", "enc"))
	isKey := func(got any, want *rsa.PrivateKey) bool {
		pub, ok := got.(*rsa.PublicKey)
		return ok && pub.N.Cmp(want.N) == 0
	}
	if key, err := ks.find("RS256", "a"); err != nil || !isKey(key, keys[0]) {
		t.Errorf(`find("RS256", "a") = %v, %v; want the first key with kid "a"`, key, err)
	}
	if key, err := ks.find("RS256", "c"); err != nil || !isKey(key, keys[2]) {
		t.Errorf(`find("RS256", "c") = %v, %v; want "c", which names no algorithm`, key, err)
	}
	for _, tc := range []struct {
		alg, kid string
		want     error
	}{
		{"RS384", "a", errKeyMisuse},
		{"RS256", "zz", errUnknownKey},
		{"RS256", "e", errUnknownKey}, // an encryption key is not held
	} {
		if key, err := ks.find(tc.alg, tc.kid); !errors.Is(err, tc.want) {
			t.Errorf("find(%q, %q) = %v, %v; want %v", tc.alg, tc.kid, key, err, tc.want)
		}
	}
	// Both keys with kid "a" are in the set: a token without kid may be
	// signed by either.
	for alg, want := range map[string]int{"RS256": 3, "RS384": 2, "ES256": 1} {
		key, err := ks.find(alg, "")
		if set, ok := key.(jwt.VerificationKeySet); err != nil || !ok || len(set.Keys) != want {
			t.Errorf("find(%q, \"\") = %v, %v; want a set of %d keys", alg, key, err, want)
		}
	}
	if key, err := parse(jwk(keys[0], "a", "RS256", "")).find("ES256", ""); !errors.Is(err, errKeyMisuse) {
		t.Errorf("no key for the algorithm: %v, %v; want %v", key, err, errKeyMisuse)
	}
	if key, err := (*keySet)(nil).find("RS256", "a"); !errors.Is(err, errNoKeysYet) {
		t.Errorf("before any fetch: %v, %v; want %v", key, err, errNoKeysYet)
	}
	c := &jwksCache{}
	c.keys.Store(ks)
	if key, err := c.keyfunc(t.Context())(&jwt.Token{Header: map[string]any{"alg": "RS256", "kid": 7}}); !errors.Is(err, errBadKeyID) {
		t.Errorf("a kid that is not a string: %v, %v; want %v", key, err, errBadKeyID)
	}
}
