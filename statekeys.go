package mcpcore

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
)

// The keys that sign a multi-round call's requestState (Config.StateKeys).
// A signed state names the key that signed it by an id, so that replicas
// given the same keys accept each other's rounds, and a key rotates
// without breaking the rounds in flight: the first key signs, every key
// verifies the states that name it.

// A stateKey is one HMAC-SHA256 key, with its id.
type stateKey struct {
	id  string // written before the state's payload; names the key, reveals nothing of it
	key []byte
}

// stateKeys are a server's keys, the signing one first.
type stateKeys struct {
	keys []stateKey
	// random says that no key was configured and this process drew its
	// own: a round answered by another replica would be refused.
	random bool
}

// newStateKeys makes the keys of Config.StateKeys, already checked (see
// Config.Check), or a random key when there are none.
func newStateKeys(configured []string) stateKeys {
	if len(configured) == 0 {
		k := make([]byte, 32)
		rand.Read(k)
		return stateKeys{keys: []stateKey{{id: keyID(k), key: k}}, random: true}
	}
	ks := stateKeys{}
	for _, c := range configured {
		ks.keys = append(ks.keys, stateKey{id: keyID([]byte(c)), key: []byte(c)})
	}
	return ks
}

// keyID names a key: the first 8 bytes of a hash of it under a label of
// its own, so that the id is not an HMAC the key could be tested against.
func keyID(key []byte) string {
	h := sha256.New()
	h.Write([]byte("mcpcore requestState key id\x00"))
	h.Write(key)
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil)[:8])
}

// signing is the key that signs new states.
func (ks stateKeys) signing() stateKey { return ks.keys[0] }

// byID returns the key a state names, if the server holds it.
func (ks stateKeys) byID(id string) (stateKey, bool) {
	for _, k := range ks.keys {
		if hmac.Equal([]byte(k.id), []byte(id)) {
			return k, true
		}
	}
	return stateKey{}, false
}

// mac is the signature of a state's payload for the call binding names,
// under k; the key id is signed too.
func (k stateKey) mac(binding string, payload []byte) []byte {
	m := hmac.New(sha256.New, k.key)
	m.Write([]byte(k.id))
	m.Write([]byte{0})
	m.Write([]byte(binding))
	m.Write([]byte{0})
	m.Write(payload)
	return m.Sum(nil)
}
