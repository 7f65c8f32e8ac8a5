package httpserve

import "net/http"

// The probes of an orchestrator, served outside any authentication:
// whether the process lives, and whether it takes calls.
const (
	// LivenessPath answers 200 while the process serves HTTP at all.
	LivenessPath = "/healthz"
	// ReadinessPath answers 200 while the server admits calls, and 503 once
	// it drains at shutdown, so that a load balancer stops sending it work
	// while the calls in flight finish.
	ReadinessPath = "/readyz"
)

// probes adds the liveness and readiness probes to mux; draining reports
// whether the server has stopped admitting calls.
func probes(mux *http.ServeMux, draining func() bool) {
	mux.HandleFunc("GET "+LivenessPath, func(w http.ResponseWriter, _ *http.Request) {
		writeStatus(w, http.StatusOK, "ok")
	})
	mux.HandleFunc("GET "+ReadinessPath, func(w http.ResponseWriter, _ *http.Request) {
		if draining != nil && draining() {
			writeStatus(w, http.StatusServiceUnavailable, "draining")
			return
		}
		writeStatus(w, http.StatusOK, "ready")
	})
}

// writeStatus writes a probe's answer: {"status": status}, never cached.
func writeStatus(w http.ResponseWriter, code int, status string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	w.Write([]byte(`{"status":"` + status + `"}` + "\n"))
}
