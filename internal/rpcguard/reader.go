package rpcguard

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// reader is the connection's side of the stream: it checks each line,
// answers the invalid ones and queues the valid messages, decoded.
type reader struct {
	g    *Guard
	src  io.Reader
	br   *bufio.Reader
	max  int
	line []byte // the line being checked, at most max bytes of it
	err  error  // the stream's error, returned once the queue is read
	// dec takes the valid messages, decoded (see Guard.Transport).
	dec *decoded
	// holdEOF runs before the end of the input is passed on (see
	// Guard.HoldEOF).
	holdEOF func()
}

// shrinkAbove is the buffer size kept between lines: a buffer grown for one
// long line is let go, not held for the life of the connection.
const shrinkAbove = 1 << 20

// fill reads and checks lines until ready reports that something is to be
// passed on, or the stream ends.
func (r *reader) fill(ready func() bool) error {
	for !ready() {
		if r.err != nil {
			// A stream that breaks ends the input as EOF does.
			if r.holdEOF != nil {
				hold := r.holdEOF
				r.holdEOF = nil
				hold()
			}
			return r.err
		}
		line, over, got, err := r.readLine()
		r.err = err
		if !got {
			continue
		}
		if err := r.check(line, over); err != nil {
			return err
		}
	}
	return nil
}

// Close implements io.Closer.
func (r *reader) Close() error {
	r.g.st.close()
	if c, ok := r.src.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// readLine reads the next line. It keeps max bytes of it at most, and
// reads the rest of a longer line through the buffer without keeping it:
// a line's cost in memory is bounded whatever its length. got reports
// whether there was a line, which may end the stream without a newline.
func (r *reader) readLine() (line []byte, over, got bool, err error) {
	if cap(r.line) > shrinkAbove {
		r.line = nil
	}
	r.line = r.line[:0]
	for {
		chunk, err := r.br.ReadSlice('\n')
		got = got || len(chunk) > 0
		body, end := bytes.CutSuffix(chunk, []byte{'\n'})
		if !over {
			if r.max > 0 && len(r.line)+len(body) > r.max {
				over = true
				body = body[:r.max-len(r.line)] // the head, for the id
			}
			r.line = append(r.line, body...)
		}
		if end {
			return r.line, over, true, nil
		}
		if err != bufio.ErrBufferFull {
			return r.line, over, got, err
		}
	}
}

// check answers an invalid line, or sets what the transport reads next.
// Its error is one writing an answer, which ends the stream.
func (r *reader) check(line []byte, over bool) error {
	if over {
		return r.refuseLine(tooLong(r.max), line)
	}
	// The SDK ends the connection on anything but a newline after a value,
	// even a space.
	line = bytes.Trim(line, " \t\r")
	if len(line) == 0 {
		return nil // blank
	}
	if fault, to, ok := frame(line, "line"); fault != nil {
		return r.refuse(fault, to, ok)
	}
	if first(line) == '{' {
		return r.single(line)
	}
	return r.batch(line)
}

// frame checks what b, a line or a body (what), must be before its members
// are read: nested no deeper than MaxDepth (checked first, by a scan, so
// that nothing deeper is decoded), one JSON value, an object or an array.
// It returns nil, or the fault and the id the answer may carry: the one the
// first members show, if any.
func frame(b []byte, what string) (fault *rpcError, to id, ok bool) {
	switch {
	case depth(b) > MaxDepth:
		fault = parseError(fmt.Sprintf("the JSON is nested deeper than %d levels", MaxDepth))
	case !json.Valid(b):
		fault = parseError(syntaxFault(b, what))
	case first(b) != '{' && first(b) != '[':
		return invalidRequest("a message must be a JSON object, or a batch array of them"), id{}, false
	default:
		return nil, id{}, false
	}
	to, ok = headID(b)
	return fault, to, ok
}

// refuse answers a line that is not passed on, under to when ok and to is
// not in use by a pending request.
func (r *reader) refuse(e *rpcError, to id, ok bool) error {
	st := r.g.st
	st.mu.Lock()
	ok = ok && !st.inUse(to)
	st.mu.Unlock()
	var p *id
	if ok {
		p = &to
	}
	_, err := r.g.write(append(answer(e, p), '\n'))
	return err
}

// refuseLine answers a line that could not be parsed, under the id its
// first members show, if any.
func (r *reader) refuseLine(e *rpcError, line []byte) error {
	to, ok := headID(line)
	return r.refuse(e, to, ok)
}

// errInUse is the fault of a request whose id a pending request has.
const errInUse = `the "id" is in use by a pending request`

// single checks a line holding one message.
func (r *reader) single(line []byte) error {
	m := parseMessage(line)
	st := r.g.st
	st.mu.Lock()
	if m.isCall() && st.inUse(m.id) {
		m.fault, m.echo = invalidRequest(errInUse), false
	} else if m.isCall() && !st.initSeen {
		if needsSession(m) {
			m.fault = notInitialized
		} else if bytes.Contains(m.raw, newProtocolKey) {
			// The client speaks a protocol whose requests stand on their
			// own (2026-07-28): none of its calls needs initialize.
			st.initSeen = true
		}
	}
	if m.fault == nil {
		st.admit(m, false)
	}
	st.mu.Unlock()
	if m.fault != nil {
		return r.refuse(m.fault, m.id, m.echo)
	}
	if !r.dec.pass(m) {
		return r.refuse(undecodable, id{}, false)
	}
	return nil
}

// syntaxFault says why json.Valid refused b, a line or a body (what).
func syntaxFault(b []byte, what string) string {
	var v json.RawMessage
	if json.NewDecoder(bytes.NewReader(b)).Decode(&v) == nil {
		return "the " + what + " has data after its JSON value"
	}
	return "the " + what + " is not valid JSON"
}

// depth returns the deepest nesting of arrays and objects in line, counted
// as the SDK counts it, without decoding anything.
func depth(line []byte) int {
	var d, deepest int
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '"':
			i = skipString(line, i) - 1
		case '{', '[':
			d++
			deepest = max(deepest, d)
		case '}', ']':
			if d > 0 {
				d--
			}
		}
	}
	return deepest
}
