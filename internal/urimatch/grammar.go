package urimatch

// A step is one state of a template's automaton.
type step struct {
	kind stepKind
	// r is the rune a literal step reads.
	r rune
	// reserved lets a value step read reserved characters; most bounds
	// the characters it reads (a prefix modifier), 0 for no bound.
	reserved bool
	most     int
	// value numbers a value step among the template's.
	value int
	// slot is the variable whose value an open or close step bounds.
	slot int
	// next follows the step; a choice prefers it to alt.
	next, alt int
}

type stepKind uint8

const (
	// readRune reads one rune, r.
	readRune stepKind = iota
	// readValue reads as many value characters as will still let the rest
	// of the URI match, up to most.
	readValue
	// choose goes on at next when the rest can match from there, else
	// at alt.
	choose
	// open and close mark where a value starts and ends.
	open
	close
	// accept ends the template.
	accept
)

// A builder writes a template's steps from its end to its start, each
// piece given the step that follows it and returning its first step.
type builder struct {
	steps []step
	slots map[string]int
	keys  []string
}

func (b *builder) add(s step) int {
	b.steps = append(b.steps, s)
	return len(b.steps) - 1
}

// prefer is a choice of first, else second.
func (b *builder) prefer(first, second int) int {
	return b.add(step{kind: choose, next: first, alt: second})
}

// text reads s, rune by rune.
func (b *builder) text(s string, next int) int {
	runes := []rune(s)
	for i := len(runes) - 1; i >= 0; i-- {
		next = b.add(step{kind: readRune, r: runes[i], next: next})
	}
	return next
}

// template reads the whole template, then accepts.
func (b *builder) template(parts []part) int {
	next := b.add(step{kind: accept})
	for i := len(parts) - 1; i >= 0; i-- {
		if parts[i].expr == nil {
			next = b.text(parts[i].literal, next)
		} else {
			next = b.expression(parts[i].expr, next)
		}
	}
	return next
}

// expression reads the operator's first string and then each variable in
// turn, any of which may be missing, the separator before each but the
// first being optional too; or, if that cannot match, nothing at all.
func (b *builder) expression(e *expression, next int) int {
	rest := next
	for i := len(e.vars) - 1; i >= 0; i-- {
		variable := b.variable(e.op, e.vars[i], rest)
		if i > 0 {
			variable = b.prefer(b.text(e.op.sep, variable), variable)
		}
		rest = b.prefer(variable, rest)
	}
	return b.prefer(b.text(e.op.first, rest), next)
}

// variable reads one variable's values, as its operator writes them.
func (b *builder) variable(op operator, v varspec, next int) int {
	slot := b.slot(v.key())
	value := func(next int) int {
		closing := b.add(step{kind: close, slot: slot, next: next})
		read := b.add(step{kind: readValue, reserved: op.reserved, most: v.prefix, next: closing})
		return b.add(step{kind: open, slot: slot, next: read})
	}
	switch {
	case !op.named:
		// value ("," value)*, or the operator's separator when exploded,
		// with as few values as will do.
		sep := ","
		if v.explode {
			sep = op.sep
		}
		return b.list(value, sep, false, next)
	case !v.explode:
		// name=value("," value)*, with as many values as will do, or the
		// name followed by the operator's string for an empty value.
		return b.text(v.name, b.prefer(
			b.text("=", b.list(value, ",", true, next)),
			b.text(op.ifEmpty, next)))
	default:
		// name=value (or the name and the string for an empty value),
		// repeated with the separator as often as will do; or nothing.
		again := b.add(step{kind: choose})
		pair := b.text(v.name, b.prefer(b.text("=", value(again)), b.text(op.ifEmpty, again)))
		b.steps[again].next, b.steps[again].alt = b.text(op.sep, pair), next
		return b.prefer(pair, next)
	}
}

// list reads value (sep value)*, with as many values as will do when
// most, else as few.
func (b *builder) list(value func(next int) int, sep string, most bool, next int) int {
	again := b.add(step{kind: choose})
	first := value(again)
	more := b.text(sep, first)
	if most {
		b.steps[again].next, b.steps[again].alt = more, next
	} else {
		b.steps[again].next, b.steps[again].alt = next, more
	}
	return first
}

// slot numbers the variables by the key their values are reported under.
func (b *builder) slot(key string) int {
	if s, ok := b.slots[key]; ok {
		return s
	}
	b.slots[key] = len(b.keys)
	b.keys = append(b.keys, key)
	return len(b.keys) - 1
}
