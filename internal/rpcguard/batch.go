package rpcguard

import "bytes"

// batch checks a line holding a batch array. See the package doc for what
// it answers and what it passes on.
func (r *reader) batch(line []byte) error {
	elems := elements(line)
	if len(elems) == 0 {
		return r.refuse(invalidRequest("an empty batch"), id{}, false)
	}
	msgs := make([]*message, len(elems))
	for n, e := range elems {
		msgs[n] = parseMessage(e)
	}

	st := r.g.st
	st.mu.Lock()
	refusal := st.batchRefusal()
	markBatchRules(msgs, st.initSeen)
	faults := markCalls(msgs, st.inUse)
	var (
		answers [][]byte
		pass    []*message
	)
	for _, m := range msgs {
		switch {
		case m.fault != nil:
			answers = append(answers, faults.answer(m))
		case refusal != "":
			if m.isCall() {
				answers = append(answers, answer(invalidRequest(refusal), &m.id))
			}
		default:
			pass = append(pass, m)
		}
	}
	for _, m := range pass {
		st.admit(m, m.isCall())
	}
	st.mu.Unlock()

	if len(answers) > 0 {
		if _, err := r.g.write(append(array(answers), '\n')); err != nil {
			return err
		}
	}
	if !r.dec.passBatch(pass) {
		return r.refuse(undecodable, id{}, false)
	}
	return nil
}

// batchFaults answers the invalid elements of one batch.
type batchFaults struct {
	inUse  func(id) bool
	calls  map[id]bool // the ids of the batch's valid requests
	echoed map[id]bool // the ids answered so far
}

// markCalls marks as invalid each request of a batch whose id is in use or
// given twice in the batch (the SDK ends the connection on both), and
// returns what answers the invalid elements.
func markCalls(msgs []*message, inUse func(id) bool) *batchFaults {
	f := &batchFaults{inUse: inUse, calls: make(map[id]bool), echoed: make(map[id]bool)}
	for _, m := range msgs {
		if !m.isCall() {
			continue
		}
		if inUse(m.id) || f.calls[m.id] {
			m.fault, m.echo = invalidRequest(errInUse), false
			continue
		}
		f.calls[m.id] = true
	}
	return f
}

// answer is the error answer to an invalid element: under its id only when
// no valid request of the batch, no pending request and no earlier answer
// has that id, so that no answer can be taken for another request's.
func (f *batchFaults) answer(m *message) []byte {
	var to *id
	if m.echo && !f.inUse(m.id) && !f.calls[m.id] && !f.echoed[m.id] {
		to, f.echoed[m.id] = &m.id, true
	}
	return answer(m.fault, to)
}

// array joins answers into one JSON array.
func array(answers [][]byte) []byte {
	return append(append([]byte{'['}, bytes.Join(answers, []byte{','})...), ']')
}
