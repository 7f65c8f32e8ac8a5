package rpcguard

// outgoing returns the ids of the responses in one line the SDK writes, with
// the objects they come in. Lines the SDK writes are valid JSON, an object
// or an array of objects; anything else yields nothing.
func outgoing(line []byte) (ids []id, objs [][]byte) {
	switch first(line) {
	case '{':
		if i, ok := responseID(line); ok {
			return []id{i}, [][]byte{line}
		}
	case '[':
		for _, obj := range elements(line) {
			if i, ok := responseID(obj); ok {
				ids, objs = append(ids, i), append(objs, obj)
			}
		}
	}
	return ids, objs
}

// responseID returns the id of a response object. The SDK writes "jsonrpc"
// and "id" first, then "method", "result" or "error", so this reads a few
// members only, however large the result.
func responseID(obj []byte) (id, bool) {
	it, ok := newMembers(obj)
	if !ok {
		return id{}, false
	}
	var (
		got             id
		hasID, response bool
	)
	for {
		key, ok := it.key()
		if !ok {
			return id{}, false
		}
		switch string(key) {
		case "method":
			return id{}, false // a request or a notification of the server
		case "result", "error":
			response = true
		case "id":
			var null bool
			var fault string
			got, null, fault = parseID(it.value())
			hasID = fault == "" && !null
		}
		if hasID && response {
			return got, true
		}
		if string(key) != "id" {
			it.value()
		}
	}
}
