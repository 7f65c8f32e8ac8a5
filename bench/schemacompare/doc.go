// Package schemacompare measures mcpcore's JSON Schema validator
// (internal/schema) against the two general Go libraries a server author
// would pick instead, santhosh-tekuri/jsonschema/v6 and
// xeipuuv/gojsonschema, on the same schema and the same inputs. It is a
// module of its own, so that neither library enters mcpcore's
// dependencies; its path lies under mcpcore's, which lets it import the
// internal package itself rather than a copy or an exported seam.
//
//	cd bench/schemacompare && go test -bench . -benchmem
package schemacompare
