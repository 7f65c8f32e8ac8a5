package level

import (
	"log/slog"
	"testing"
)

func TestNoticeBetweenInfoAndWarning(t *testing.T) {
	t.Parallel()
	if !(slog.LevelInfo < Notice && Notice < slog.LevelWarn) {
		t.Errorf("Notice = %v", Notice)
	}
}
