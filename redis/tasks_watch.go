package redis

import (
	"context"
	"encoding/json"
)

// taskSignal is what Answer, Cancel and Abandon publish on the tasks
// channel: which task changed, who changed it (to drop one's own echo) and
// who runs it (so that only the owner hears it). It carries no data: the
// owner re-reads the task, so a forged signal costs a read.
type taskSignal struct {
	ID    string `json:"id"`
	From  string `json:"from"`
	Owner string `json:"owner"`
}

// maxSignal bounds a message that can be a signal: an id of 64 bytes (the
// server refuses longer ones), two replica ids and the JSON around them fit
// with room. A longer message on the channel was not published by a store,
// and is dropped before it is decoded.
const maxSignal = 256

// signal is the start of the signal a change to task id publishes: the
// script appends the owner, as it stored it in JSON, and the closing brace,
// so that the signal names the owner without a second round trip.
func (s *taskStore) signal(id string) string {
	i, _ := json.Marshal(id) // strings always marshal
	f, _ := json.Marshal(s.f.id)
	return `{"id":` + string(i) + `,"from":` + string(f) + `,"owner":`
}

// Watch subscribes to the tasks channel, as the bus's Listen does, and
// calls deliver, from one goroutine, with the id of each task this replica
// owns that another replica answered, cancelled or abandoned; see
// [fleet.TaskStore]. Signals of other replicas' tasks are skipped, this
// replica's own echoes and malformed messages dropped and counted
// (mcp.fleet.tasks.signals.dropped). stop returns once deliver is no longer
// called; Close stops every Watch.
func (s *taskStore) Watch(deliver func(id string)) (stop func()) {
	return s.f.subscribe(s.channel, "the other replicas' answers and cancels of tasks", func(payload string) {
		s.receive(payload, deliver)
	})
}

func (s *taskStore) receive(payload string, deliver func(id string)) {
	if len(payload) > maxSignal {
		s.f.meters.dropSignal(reasonMalformed)
		return
	}
	var sig taskSignal
	if err := json.Unmarshal([]byte(payload), &sig); err != nil || sig.ID == "" || sig.From == "" || sig.Owner == "" {
		s.f.meters.dropSignal(reasonMalformed)
		return
	}
	if sig.Owner != s.f.id {
		return // another replica's task
	}
	if sig.From == s.f.id {
		s.f.meters.dropSignal(reasonEcho)
		return
	}
	deliver(sig.ID)
	s.f.meters.signals.Add(context.Background(), 1)
}
