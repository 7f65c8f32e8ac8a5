package fleet_test

import (
	"crypto/rand"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore/fleet"
)

// The store's cost on the path of a call: a Create at the boundary, a Get
// per poll. Ids as the server makes them.
func BenchmarkLocalTasksCreate(b *testing.B) {
	s := fleet.NewLocalTasks(fleet.LocalTasksOptions{MaxRecords: -1, MaxBytes: -1})
	for b.Loop() {
		if _, err := s.Create(bg, fleet.Task{ID: rand.Text(), Tool: "t", Status: fleet.TaskWorking, TTL: time.Hour}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLocalTasksGet(b *testing.B) {
	s := fleet.NewLocalTasks(fleet.LocalTasksOptions{})
	result := json.RawMessage(`{"content":[{"type":"text","text":"computed"}],"structuredContent":{"text":"computed"}}`)
	ids := make([]string, 1000)
	for i := range ids {
		ids[i] = rand.Text()
		if _, err := s.Create(bg, fleet.Task{ID: ids[i], Principal: "p", Status: fleet.TaskCompleted, Outcome: result, TTL: time.Hour}); err != nil {
			b.Fatal(err)
		}
	}
	i := 0
	for b.Loop() {
		if _, err := s.Get(bg, ids[i%len(ids)], "p"); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// An answer of n keys costs n lookups, whatever the task holds: a client
// sending many unknown keys pays for its own bytes only.
func BenchmarkLocalTasksAnswerUnknownKeys(b *testing.B) {
	for _, n := range []int{100, 10_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			s := fleet.NewLocalTasks(fleet.LocalTasksOptions{})
			q := map[string]json.RawMessage{"confirm": json.RawMessage(`{}`)}
			if _, err := s.Create(bg, fleet.Task{ID: "t", Principal: "p", Status: fleet.TaskInputRequired, Questions: q, TTL: time.Hour}); err != nil {
				b.Fatal(err)
			}
			answers := make(map[string]json.RawMessage, n)
			for i := range n {
				answers["k"+strconv.Itoa(i)] = json.RawMessage(`true`)
			}
			for b.Loop() {
				if err := s.Answer(bg, "t", "p", answers); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
