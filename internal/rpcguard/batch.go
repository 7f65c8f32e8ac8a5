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
	calls := make(map[id]bool) // the ids of the batch's valid requests
	for _, m := range msgs {
		if !m.isCall() {
			continue
		}
		if st.inUse(m.id) || calls[m.id] {
			m.fault, m.echo = invalidRequest(errInUse), false
			continue
		}
		calls[m.id] = true
	}
	var (
		answers [][]byte
		pass    []*message
		echoed  = make(map[id]bool)
	)
	for _, m := range msgs {
		switch {
		case m.fault != nil:
			// An invalid element's id must not be one a valid request of
			// the batch, a pending request, or an earlier answer has.
			var to *id
			if m.echo && !st.inUse(m.id) && !calls[m.id] && !echoed[m.id] {
				to, echoed[m.id] = &m.id, true
			}
			answers = append(answers, answer(m.fault, to))
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
		out := append([]byte{'['}, bytes.Join(answers, []byte{','})...)
		if _, err := r.g.write(append(out, ']', '\n')); err != nil {
			return err
		}
	}
	r.forward(line, msgs, pass)
	return nil
}

// forward sets what the SDK reads of a batch: its valid requests as one
// batch, then its valid notifications and responses one line each. The SDK
// waits for an answer to every element of a batch but sends none for a
// notification, so a notification in a batch would hold back the answer
// to the whole batch.
func (r *reader) forward(line []byte, msgs, pass []*message) {
	var calls, others [][]byte
	for _, m := range pass {
		if m.isCall() {
			calls = append(calls, m.raw)
		} else {
			others = append(others, m.raw)
		}
	}
	if len(calls) == len(msgs) {
		r.fwd = append(line, '\n') // the batch as it came
		return
	}
	r.buf = r.buf[:0]
	if len(calls) > 0 {
		r.buf = append(r.buf, '[')
		r.buf = append(r.buf, bytes.Join(calls, []byte{','})...)
		r.buf = append(r.buf, ']', '\n')
	}
	for _, o := range others {
		r.buf = append(append(r.buf, o...), '\n')
	}
	r.fwd = r.buf
}
