// Package level names the log levels of mcpcore: slog's and notice, by
// the names MCP_LOG_LEVEL and the severities of error contracts use. It
// is apart from package app, which reads MCP_LOG_LEVEL, so that package
// contract, which clients link, links no configuration.
package level

import (
	"log/slog"
	"strings"
)

// Notice is the level of notice records, between info and warning as in
// syslog; slog has none of its own. mcpcore.LevelNotice is this level.
const Notice = slog.Level(2)

// Parse returns the slog level of a level name: debug, info, notice,
// warning (or warn) or error, in any case. MCP_LOG_LEVEL and the severities
// of error contracts both use these names.
func Parse(name string) (slog.Level, bool) {
	switch strings.ToLower(name) {
	case "debug":
		return slog.LevelDebug, true
	case "info":
		return slog.LevelInfo, true
	case "notice":
		return Notice, true
	case "warning", "warn":
		return slog.LevelWarn, true
	case "error":
		return slog.LevelError, true
	}
	return 0, false
}
