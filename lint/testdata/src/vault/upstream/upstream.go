// Package upstream holds the HTTP helpers the vault's services share, in
// a package of their own: what they return is what the upstream said.
package upstream

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
)

// Body reads a response's body into a string.
func Body(resp *http.Response) string {
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// Raw reads a response's body.
func Raw(resp *http.Response) ([]byte, error) {
	defer resp.Body.Close()
	return io.ReadAll(io.LimitReader(resp.Body, 1<<20))
}

// Error is the upstream's error document.
type Error struct {
	Message string `json:"message"`
	Code    int    `json:"code"`
}

// Decode decodes the upstream's error document.
func Decode(resp *http.Response) (*Error, error) {
	var e Error
	if err := json.NewDecoder(resp.Body).Decode(&e); err != nil {
		return nil, err
	}
	return &e, nil
}

// Describe says what failed, in the upstream's own words.
func Describe(resp *http.Response) string {
	var e Error
	b, _ := io.ReadAll(resp.Body)
	_ = json.Unmarshal(b, &e)
	return resp.Status + ": " + e.Message
}

// Status is the status line, as the upstream wrote it.
func Status(resp *http.Response) string { return resp.Status }

// Path is a plain helper: it returns what the server chose.
func Path(note string) string { return "/vault/" + strings.TrimPrefix(note, "/") }
