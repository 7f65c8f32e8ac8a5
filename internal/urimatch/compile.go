package urimatch

import (
	"errors"
	"fmt"
)

// A Matcher reads the variables of URIs against one template. It is safe
// for concurrent use.
type Matcher struct {
	steps []step
	start int
	// order lists the steps so that each comes after every step it looks
	// at in the same position: the order the backward pass takes them in.
	order []int
	// values is the number of readValue steps, each numbered in its
	// step's value field.
	values int
	// keys are the variables' keys, by slot.
	keys []string
}

// Compile builds the matcher of a template, one that uritemplate.New
// accepts.
func Compile(template string) (*Matcher, error) {
	parts, err := parse(template)
	if err != nil {
		return nil, fmt.Errorf("URI template %q: %w", template, err)
	}
	b := &builder{slots: map[string]int{}}
	m := &Matcher{start: b.template(parts)}
	m.steps, m.keys = b.steps, b.keys
	for i := range m.steps {
		if m.steps[i].kind == readValue {
			m.steps[i].value = m.values
			m.values++
		}
	}
	if m.order, err = sameSpotOrder(m.steps); err != nil {
		return nil, fmt.Errorf("URI template %q: %w", template, err)
	}
	return m, nil
}

// sameSpotOrder sorts the steps so that each follows those it depends on
// without reading: a choice's two ways, an open, close or value step's
// next. Every loop of a template reads a separator or a name, so there is
// no cycle.
func sameSpotOrder(steps []step) ([]int, error) {
	const (
		unseen = iota
		visiting
		done
	)
	state := make([]uint8, len(steps))
	order := make([]int, 0, len(steps))
	var visit func(i int) error
	visit = func(i int) error {
		switch state[i] {
		case visiting:
			return errors.New("a loop that reads nothing")
		case done:
			return nil
		}
		state[i] = visiting
		s := steps[i]
		var err error
		switch s.kind {
		case choose:
			if err = visit(s.next); err == nil {
				err = visit(s.alt)
			}
		case open, close, readValue:
			err = visit(s.next)
		}
		state[i] = done
		order = append(order, i)
		return err
	}
	for i := range steps {
		if err := visit(i); err != nil {
			return nil, err
		}
	}
	return order, nil
}
