package mcpcore

// Questions inside a task: a run of the handler that ends with questions
// (ErrInputRequired, as under multi-round input) makes the task
// input_required, its questions in inputRequests; tasks/update brings the
// answers to the store; once none is outstanding, the runner takes them and
// the handler runs again with them.

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/internal/errchain"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// askInTask puts the questions of a round to the client through the task
// rec, and waits until they are all answered, the task ends, or its context
// does. asked holds every question the task asked, by key, and the
// round's are added: a key names one question over the task's life, as
// the extension requires, so another question under a key already asked is
// the handler's bug. It returns the answers, or what the call ends with.
func (s *Server) askInTask(c *callState, rec fleet.Task, questions mcp.InputRequestMap, next *round, asked *map[string]string) (mcp.InputResponseMap, error) {
	if *asked == nil {
		*asked = map[string]string{}
	}
	for key, hash := range next.Asked {
		if prev, ok := (*asked)[key]; ok && prev != hash {
			return nil, mcperr.InternalError(fmt.Sprintf("The question key %q was used for two different questions in one task; "+
				"a key names one question over a task's life, so give each question its own key.", key))
		}
		(*asked)[key] = hash
	}
	encoded, err := encodeQuestions(questions)
	if err != nil {
		return nil, err
	}
	msg := waitingMessage(encoded)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.ctx), taskStoreTimeout)
	ended, err := s.ownerUpdate(ctx, rec.ID, fleet.TaskChange{Status: fleet.TaskInputRequired, Questions: encoded, Message: &msg})
	cancel()
	switch {
	case errchain.Is(err, fleet.ErrTaskEnded) || errchain.Is(err, fleet.ErrTaskNotFound) || errchain.Is(err, fleet.ErrTaskNotOwner):
		// Cancelled or ended elsewhere: its handler is done with.
		return nil, s.taskGone(c, ended.Status)
	case err != nil:
		return nil, mcperr.ServiceUnavailable("The task's questions could not be written to the task store; call the tool again.",
			mcperr.WithData(map[string]any{"retryable": true}), mcperr.WithCause(err))
	}
	// Woken by tasks/update on this server, the store's Watch, or the
	// runner's re-read of its tasks (task_reread.go), which also cancels
	// the call of a task that ended meanwhile.
	for {
		select {
		case <-c.ctx.Done():
			return nil, context.Cause(c.ctx)
		case <-c.task.wake:
		}
		answers, err := s.takeAnswers(c, rec)
		if err != nil || answers != nil {
			return answers, err
		}
	}
}

// takeAnswers reads the task rec (its shadow first, for answers given here
// while the store was away): when its questions are all answered, it
// takes the answers (the task is working again) and returns them; nil while
// some are outstanding, or the store does not answer (the next read will
// tell); the end of the call when the task ended meanwhile.
func (s *Server) takeAnswers(c *callState, rec fleet.Task) (mcp.InputResponseMap, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.ctx), taskStoreTimeout)
	defer cancel()
	none := ""
	if sh := s.taskRunner.shadow(rec.ID); sh != nil {
		if answers := sh.takeHere(); answers != nil {
			// Answered here while the store was away.
			t, err := s.ownerUpdate(ctx, rec.ID, fleet.TaskChange{Status: fleet.TaskWorking, Message: &none})
			if err != nil && storeRefused(err) {
				return nil, s.taskGone(c, t.Status)
			}
			return decodeAnswers(answers), nil
		}
	}
	t, err := s.taskStore.Get(ctx, rec.ID, rec.Principal)
	switch {
	case errchain.Is(err, fleet.ErrTaskNotFound):
		return nil, s.taskGone(c, "")
	case err != nil:
		return nil, nil
	case t.Status.Terminal():
		return nil, s.taskGone(c, t.Status)
	case t.Status != fleet.TaskWorking:
		return nil, nil
	}
	t, err = s.ownerUpdate(ctx, rec.ID, fleet.TaskChange{Status: fleet.TaskWorking, Message: &none, TakeAnswers: true})
	switch {
	case errchain.Is(err, fleet.ErrTaskEnded) || errchain.Is(err, fleet.ErrTaskNotFound) || errchain.Is(err, fleet.ErrTaskNotOwner):
		return nil, s.taskGone(c, t.Status)
	case err != nil:
		return nil, nil
	}
	return decodeAnswers(t.Answers), nil
}

// taskGone ends the handler of a task that ended without it, as status
// ("" when its record is gone or another replica's), and returns what its
// call ends with; the store refuses the outcome (see finishTask).
func (s *Server) taskGone(c *callState, status fleet.TaskStatus) error {
	c.cancel(endedCause(status))
	return context.Cause(c.ctx)
}

// encodeQuestions is each question of a round as the store keeps it and
// inputRequests has it: {"method": …, "params": …}, the SDK's encoding of
// multi-round input.
func encodeQuestions(questions mcp.InputRequestMap) (map[string]json.RawMessage, error) {
	b, err := json.Marshal(questions)
	var out map[string]json.RawMessage
	if err == nil {
		err = json.Unmarshal(b, &out)
	}
	if err != nil {
		return nil, mcperr.InternalError("The task's questions could not be encoded: "+err.Error(), mcperr.WithCause(err))
	}
	return out, nil
}

// decodeAnswers reads the answers a client gave, each alone, with the SDK's
// decoder of multi-round input: an answer that is none of an elicitation's,
// a sampling's or a roots' counts as no answer, and its question is asked
// again.
func decodeAnswers(raw map[string]json.RawMessage) mcp.InputResponseMap {
	out := make(mcp.InputResponseMap, len(raw))
	for key, a := range raw {
		var one mcp.InputResponseMap
		if json.Unmarshal(append(append([]byte(`{"a":`), a...), '}'), &one) == nil && one["a"] != nil {
			out[key] = one["a"]
		}
	}
	return out
}

// waitingMessage is the statusMessage of a task waiting for answers: it
// names the keys, in order.
func waitingMessage(questions map[string]json.RawMessage) string {
	keys := make([]string, 0, len(questions))
	for k := range questions {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if len(keys) == 1 {
		return "Waiting for the client's answer to: " + keys[0]
	}
	return "Waiting for the client's answers to: " + strings.Join(keys, ", ")
}
