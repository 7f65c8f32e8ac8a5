package golangci

import (
	"fmt"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/seed417024ea/mcpcore/lint"
)

func init() {
	register.Plugin("mcplint", New)
}

// New returns the plugin. It takes no settings: a rule is silenced in the
// code, with //mcplint:ignore and a reason, not in a configuration file
// where the reason would be lost.
func New(settings any) (register.LinterPlugin, error) {
	if m, ok := settings.(map[string]any); ok && len(m) > 0 {
		return nil, fmt.Errorf("mcplint takes no settings, got %v", m)
	}
	return plugin{}, nil
}

// plugin is mcplint as golangci-lint sees it.
type plugin struct{}

// BuildAnalyzers returns mcplint's analyzers.
func (plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) { return lint.Analyzers, nil }

// GetLoadMode asks for type information: the analyzers read types, and
// their facts cross packages.
func (plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
