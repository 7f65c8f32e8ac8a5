package rpcguard

// A batchAnswer collects the answers to one batch's requests, to be written
// as one array, in the batch's order, once the last comes.
type batchAnswer struct {
	ids     []id
	answers [][]byte // by the position of the request in ids
	left    int      // the answers still to come
}

// A batchSlot is where the answer to one request of a batch goes: the
// connection finds it by the answer's id, in one map look-up, whatever the
// size of the batch. The ids of a batch's requests are distinct as values
// (the check refuses a batch that gives one twice, 1 and 1.0 included), so
// each has a slot of its own.
type batchSlot struct {
	b *batchAnswer
	n int // the request's position in b.ids
}

// newBatchAnswer returns the answer to the requests among pass, the valid
// messages of a batch, or nil when it has none.
func newBatchAnswer(pass []*message) *batchAnswer {
	var b *batchAnswer
	for _, m := range pass {
		if m.isCall() {
			if b == nil {
				b = &batchAnswer{}
			}
			b.ids = append(b.ids, m.id)
		}
	}
	if b != nil {
		b.answers, b.left = make([][]byte, len(b.ids)), len(b.ids)
	}
	return b
}

// fill records data as the answer in slot n, and reports whether it was
// the last one the batch waited for. Each slot is filled once: the
// connection forgets a slot as it hands it its answer.
func (b *batchAnswer) fill(n int, data []byte) (complete bool) {
	b.answers[n] = data
	b.left--
	return b.left == 0
}
