package review

// Mistakes is the catalog: each a mistake users make, planted alone.
// Files are those of lint/testdata/realserver.
var Mistakes = []Mistake{
	{
		ID:      "M01-forbidden-unmapped",
		Mistake: "the service raises Forbidden for a restricted record; get_record maps the service's errors with FailFrom, but no entry has that code",
		Edits: []Edit{{
			File: "upstream/records.go",
			Old:  "\tAbstract string   `json:\"abstract,omitempty\"`\n",
			New:  "\tAbstract string   `json:\"abstract,omitempty\"`\n\tRestricted bool `json:\"restricted,omitempty\"`\n",
		}, {
			File: "upstream/records.go",
			Old: `		return Record{}, fmt.Errorf("get record %s: %w", id, err)
	}
	return r, nil`,
			New: `		return Record{}, fmt.Errorf("get record %s: %w", id, err)
	}
	if r.Restricted {
		return Record{}, mcperr.Forbidden("Record " + id + " is restricted to the catalog's subscribers")
	}
	return r, nil`,
		}},
		Rules: []string{"error-contract-conformance"},
		At:    "tools/record.go",
	},
	{
		ID:      "M01b-forbidden-returned",
		Mistake: "control of M01: the same Forbidden, and save_record returns the service's error as it is",
		Edits: []Edit{{
			File: "upstream/records.go",
			Old: `		return Record{}, fmt.Errorf("get record %s: %w", id, err)
	}
	return r, nil`,
			New: `		return Record{}, fmt.Errorf("get record %s: %w", id, err)
	}
	if r.ID == "restricted" {
		return Record{}, mcperr.Forbidden("Record " + id + " is restricted to the catalog's subscribers")
	}
	return r, nil`,
		}, {
			File: "tools/shelf.go",
			Old:  "\t\t\t\treturn store.Entry{}, ctx.FailFrom(err, noRecord, queueFull, upstreamDown, apiKeyRejected)\n",
			New:  "\t\t\t\treturn store.Entry{}, err\n",
		}},
		Rules: []string{"error-contract-conformance"},
		At:    "tools/shelf.go",
	},
	{
		ID:      "M02-failfrom-entry-unproducible",
		Mistake: "search_catalog declares index_stale (DatabaseError) and passes it to FailFrom, but nothing below raises a DatabaseError (the catalog's FromResponse gives only HTTP statuses' codes)",
		Edits: []Edit{{
			File: "tools/search.go",
			Old:  "\t\tErrors:      withService(emptyQuery),",
			New:  "\t\tErrors:      withService(emptyQuery, indexStale),",
		}, {
			File: "tools/search.go",
			Old:  "\t\t\t\treturn searchOutput{}, ctx.FailFrom(err)\n",
			New:  "\t\t\t\treturn searchOutput{}, ctx.FailFrom(err, indexStale, queueFull, upstreamDown, apiKeyRejected)\n",
		}, {
			File: "tools/search.go",
			Old:  "// cmpLimit is",
			New: `var indexStale = mcpcore.Failure{
	Reason:   "index_stale",
	Code:     mcperr.CodeDatabaseError,
	When:     "The catalog's search index is being rebuilt",
	Recovery: "Wait a minute, then call search_catalog again with the same query.",
}

// cmpLimit is`,
		}, {
			File: "tools/search.go",
			Old:  "\t\"github.com/seed417024ea/mcpcore\"\n",
			New:  "\t\"github.com/seed417024ea/mcpcore\"\n\t\"github.com/seed417024ea/mcpcore/mcperr\"\n",
		}},
		Rules: []string{"error-contract-unthrown"},
	},
	{
		ID:      "M03-ifelse-reuse-hides-code",
		Mistake: "get_record assigns rec, err from GetByDOI or Get in an if/else; GetByDOI raises an undeclared Conflict for a DOI of several records",
		Edits: []Edit{{
			File: "upstream/records.go",
			Old:  "\treturn r, err\n}",
			New: `	if err == nil && r.ID == "" {
		return Record{}, mcperr.Conflict("The DOI " + doi + " names several records of the catalog")
	}
	return r, err
}`,
		}},
		Rules: []string{"error-contract-conformance"},
		At:    "tools/record.go",
	},
	{
		ID:      "M03b-ifelse-reuse-return-err",
		Mistake: "M03 with get_record returning the service's error as it is: only the if/else assignment of err hides the Conflict",
		Edits: []Edit{{
			File: "upstream/records.go",
			Old:  "\treturn r, err\n}",
			New: `	if err == nil && r.ID == "" {
		return Record{}, mcperr.Conflict("The DOI " + doi + " names several records of the catalog")
	}
	return r, err
}`,
		}, {
			File: "tools/record.go",
			Old:  "\t\t\t\treturn upstream.Record{}, ctx.FailFrom(err, noRecord, queueFull, upstreamDown, apiKeyRejected)\n",
			New:  "\t\t\t\treturn upstream.Record{}, err\n",
		}},
		Rules: []string{"error-contract-conformance"},
		At:    "tools/record.go",
	},
	{
		ID:      "M04-raise-in-queue-closure",
		Mistake: "the service raises Forbidden inside the closure it runs through the request queue, q.do(ctx, func() error {...}); no tool declares Forbidden",
		Edits: []Edit{{
			File: "upstream/client.go",
			Old:  "return struct{}{}, c.q.do(ctx, func() error { return c.once(ctx, path, query, out) })",
			New: `return struct{}{}, c.q.do(ctx, func() error {
				if query.Has("include_restricted") {
					return mcperr.Forbidden("Restricted records need a subscription of the catalog")
				}
				return c.once(ctx, path, query, out)
			})`,
		}},
		Rules: []string{"error-contract-conformance"},
		At:    "tools/search.go",
	},
	{
		ID:      "M05-errors-is-then-return-err",
		Mistake: "update_note tests errors.Is(err, store.ErrNoRow) and then returns err itself, not its declared not_saved",
		Edits: []Edit{{
			File: "tools/shelf.go",
			Old: `				return store.Entry{}, ctx.Fail(notSaved, "Record "+in.ID+" is not on the shelf",
					mcperr.WithCause(err), ctx.RecoveryFor(notSaved))
			}
			if err != nil {`,
			New: `				return store.Entry{}, err
			}
			if err != nil {`,
		}},
		Rules: []string{"error-contract-unthrown"},
	},
	{
		ID:      "M06-service-sprintf-err",
		Mistake: "the service builds its error's message with fmt.Sprintf(\"upstream failed: %v\", err)",
		Edits: []Edit{{
			File: "upstream/records.go",
			Old:  "\t\treturn Page{}, fmt.Errorf(\"search %q: %w\", query, err)\n",
			New:  "\t\treturn Page{}, mcperr.ServiceUnavailable(fmt.Sprintf(\"upstream failed: %v\", err), mcperr.WithCause(err))\n",
		}},
		Rules: []string{"no-stringify-upstream-error"},
	},
	{
		ID:      "M07-service-string-body",
		Mistake: "the service puts string(body) of the upstream's answer in its error's message instead of FromResponse",
		Edits: []Edit{{
			File: "upstream/client.go",
			Old:  "\t\treturn mcperr.FromResponse(resp, mcperr.WithService(\"Catalog\"))\n\t}\n\tif err = json",
			New: `		body, _ := io.ReadAll(io.LimitReader(resp.Body, 2048))
		return mcperr.ServiceUnavailable("The catalog failed: "+string(body), mcperr.WithData(map[string]any{"status": resp.StatusCode}))
	}
	if err = json`,
		}},
		Rules: []string{"no-stringify-upstream-error"},
	},
	{
		ID:      "M08-service-rethrow-drops-cause",
		Mistake: "the service rethrows a failed Get as a new error without its cause",
		Edits: []Edit{{
			File: "upstream/records.go",
			Old:  "\t\treturn Record{}, fmt.Errorf(\"get record %s: %w\", id, err)\n",
			New:  "\t\treturn Record{}, mcperr.ServiceUnavailable(\"The catalog failed to return record \" + id)\n",
		}},
		Rules: []string{"preserve-cause-on-rethrow"},
	},
	{
		ID:      "M09-helper-fail-no-recovery",
		Mistake: "a helper taking *mcpcore.Context fails with a declared entry but no ctx.RecoveryFor",
		Edits: []Edit{{
			File: "tools/record.go",
			Old:  `ctx.Fail(needID, "Pass either id or doi, not both and not neither", ctx.RecoveryFor(needID))`,
			New:  `ctx.Fail(needID, "Pass either id or doi, not both and not neither")`,
		}},
		Rules: []string{"error-contract-recovery-unforwarded"},
	},
	{
		ID:      "M10-helper-fail-undeclared-entry",
		Mistake: "save_record, copied from get_record, calls the helper requireOne, which fails with id_or_doi_required: save_record does not declare it",
		Edits: []Edit{{
			File: "tools/shelf.go",
			Old:  "\tID   string   `json:\"id\" jsonschema:\"the record's catalog ID\"`\n",
			New:  "\tID   string   `json:\"id\" jsonschema:\"the record's catalog ID\"`\n\tDOI string `json:\"doi,omitempty\" jsonschema:\"the record's DOI\"`\n",
		}, {
			File: "tools/shelf.go",
			Old:  "\t\tHandler: func(ctx *mcpcore.Context, in saveInput) (store.Entry, error) {\n",
			New: `		Handler: func(ctx *mcpcore.Context, in saveInput) (store.Entry, error) {
			if err := requireOne(ctx, in.ID, in.DOI); err != nil {
				return store.Entry{}, err
			}
`,
		}},
		Rules: []string{"error-contract-undeclared", "error-contract-conformance"},
	},
	{
		ID:      "M11-service-reason-typo",
		Mistake: "the service stamps a misspelt reason, upstream_unreachble, that no tool declares",
		Edits: []Edit{{
			File: "upstream/client.go",
			Old:  `mcperr.WithData(map[string]any{"reason": "upstream_unreachable"}),`,
			New:  `mcperr.WithData(map[string]any{"reason": "upstream_unreachble"}),`,
		}},
		Rules: []string{"error-contract-reason-undeclared"},
		At:    "tools/cite.go", // once per reason and service, at the first call
	},
	{
		ID:      "M12-unthrown-for-tool-a",
		Mistake: "cite_record declares already_saved, which only save_record raises",
		Edits: []Edit{{
			File: "tools/cite.go",
			Old:  "withService(noRecord, unknownStyle)",
			New:  "withService(noRecord, unknownStyle, alreadySaved)",
		}},
		Rules: []string{"error-contract-unthrown"},
	},
	{
		ID:      "M13-prefer-fail",
		Mistake: "get_record builds mcperr.NotFound itself where its contract declares no_record",
		Edits: []Edit{{
			File: "tools/record.go",
			Old:  "\t\t\treturn rec, nil\n",
			New: `			if rec.ID == "" {
				return upstream.Record{}, mcperr.NotFound("The catalog returned no record for " + in.ID + in.DOI)
			}
			return rec, nil
`,
		}, {
			File: "tools/record.go",
			Old:  "\t\"github.com/seed417024ea/mcpcore\"\n",
			New:  "\t\"github.com/seed417024ea/mcpcore\"\n\t\"github.com/seed417024ea/mcpcore/mcperr\"\n",
		}},
		Rules: []string{"error-contract-prefer-fail"},
	},
	{
		ID:      "M14-recovery-unforwarded",
		Mistake: "search_catalog fails with empty_query without ctx.RecoveryFor: the declared hint reaches no client",
		Edits: []Edit{{
			File: "tools/search.go",
			Old:  `ctx.Fail(emptyQuery, "The query is empty", ctx.RecoveryFor(emptyQuery))`,
			New:  `ctx.Fail(emptyQuery, "The query is empty")`,
		}},
		Rules: []string{"error-contract-recovery-unforwarded"},
	},
	{
		ID:      "M14b-failfrom-recovery-unforwarded",
		Mistake: "the service raises no_record without mcpcore.RecoveryFor: get_record's ctx.FailFrom maps it onto no_record, and the declared hint reaches no client",
		Edits: []Edit{{
			File: "upstream/records.go",
			Old: `		return Record{}, mcperr.NotFound("The catalog has no record "+id,
			mcperr.WithCause(err),
			mcpcore.RecoveryFor(ctx, noRecord))`,
			New: `		return Record{}, mcperr.NotFound("The catalog has no record "+id,
			mcperr.WithCause(err))`,
		}},
		Rules: []string{"error-contract-recovery-unforwarded"},
		At:    "tools/record.go",
	},
	{
		ID:      "M15-contract-from-loop",
		Mistake: "withService builds the contract in a loop, which mcplint cannot evaluate",
		Edits: []Edit{{
			File: "tools/contract.go",
			Old:  "\treturn slices.Concat(own, serviceErrors)\n",
			New: `	var all []mcpcore.Failure
	for _, part := range [][]mcpcore.Failure{own, serviceErrors} {
		all = append(all, part...)
	}
	return slices.Clip(all)
`,
		}},
		Rules: []string{"error-contract-unanalyzable"},
		At:    "tools/search.go",
	},
	{
		ID:      "M16-api-key-in-message",
		Mistake: "the service puts the request URL, api_key= included, in its error's message",
		Edits: []Edit{{
			File: "upstream/client.go",
			Old:  `mcperr.ServiceUnavailable("The catalog cannot be reached",`,
			New:  `mcperr.ServiceUnavailable("The catalog cannot be reached at "+req.URL.String(),`,
		}},
		Rules:     []string{"no-stringify-upstream-error"},
		KnownMiss: true,
	},
	{
		ID:      "M17-api-key-in-data",
		Mistake: "the service puts the request URL, api_key= included, in its error's data",
		Edits: []Edit{{
			File: "upstream/client.go",
			Old:  `mcperr.WithData(map[string]any{"reason": "upstream_unreachable"}),`,
			New:  `mcperr.WithData(map[string]any{"reason": "upstream_unreachable", "url": c.endpoint(path, query)}),`,
		}},
		Rules:     []string{"no-stringify-upstream-error"},
		KnownMiss: true,
	},
	{
		ID:      "M18-path-dependent-unauthorized",
		Mistake: "negative: call raises Unauthorized only when op is catalog.Deposit, every caller passes another op, and save_record returns Get's error as it is (so that FailFrom hides nothing)",
		Edits: []Edit{{
			File: "upstream/client.go",
			Old:  "\tctx, cancel := context.WithTimeout(ctx, c.timeout)\n",
			New: `	if op == "catalog.Deposit" && strings.HasPrefix(c.key, "ro-") {
		return mcperr.Unauthorized("Depositing records needs a write key of the catalog")
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
`,
		}, {
			File: "upstream/client.go",
			Old:  "\t\"net/url\"\n",
			New:  "\t\"net/url\"\n\t\"strings\"\n",
		}, {
			File: "tools/shelf.go",
			Old:  "\t\t\t\treturn store.Entry{}, ctx.FailFrom(err, noRecord, queueFull, upstreamDown, apiKeyRejected)\n",
			New:  "\t\t\t\treturn store.Entry{}, err\n",
		}},
		// Every caller passes a constant op other than catalog.Deposit:
		// the condition rules the code out.
	},
	{
		ID:      "M19-raise-only-logged",
		Mistake: "negative: the service's Get builds a Forbidden error only to log it, and save_record returns Get's error as it is",
		Edits: []Edit{{
			File: "upstream/records.go",
			Old:  "\t\treturn Record{}, fmt.Errorf(\"get record %s: %w\", id, err)\n",
			New: `		slog.WarnContext(ctx, "catalog get failed", "error", mcperr.Forbidden("get refused", mcperr.WithCause(err)))
		return Record{}, fmt.Errorf("get record %s: %w", id, err)
`,
		}, {
			File: "upstream/records.go",
			Old:  "\t\"fmt\"\n",
			New:  "\t\"fmt\"\n\t\"log/slog\"\n",
		}, {
			File: "tools/shelf.go",
			Old:  "\t\t\t\treturn store.Entry{}, ctx.FailFrom(err, noRecord, queueFull, upstreamDown, apiKeyRejected)\n",
			New:  "\t\t\t\treturn store.Entry{}, err\n",
		}},
	},
	{
		ID:      "M20-handler-errorf-v",
		Mistake: "cite_record rethrows the service's error as fmt.Errorf(\"citation failed: %v\", err)",
		Edits: []Edit{{
			File: "tools/cite.go",
			Old:  "\t\t\t\treturn citeOutput{}, ctx.FailFrom(err, noRecord, queueFull, upstreamDown, apiKeyRejected)\n",
			New:  "\t\t\t\treturn citeOutput{}, fmt.Errorf(\"citation failed: %v\", err)\n",
		}, {
			File: "tools/cite.go",
			Old:  "\t\"slices\"\n",
			New:  "\t\"fmt\"\n\t\"slices\"\n",
		}},
		Rules: []string{"preserve-cause-on-rethrow", "no-stringify-upstream-error", "prefer-mcp-error-in-handler"},
	},
	{
		ID:      "M21-resource-wrong-entry",
		Mistake: "the shelf resource, copied from get_record, fails with no_record, which it does not declare",
		Edits: []Edit{{
			File: "tools/resource.go",
			Old: `ctx.Fail(notSaved, "Record "+p.RecordID+" is not on the shelf",
					mcperr.WithCause(err), ctx.RecoveryFor(notSaved))`,
			New: `ctx.Fail(noRecord, "Record "+p.RecordID+" is not on the shelf",
					mcperr.WithCause(err), ctx.RecoveryFor(noRecord))`,
		}},
		Rules: []string{"error-contract-undeclared"},
	},
	{
		ID:      "M22-shared-entry-twice",
		Mistake: "save_record appends queue_full to serviceErrors, which already holds it",
		Edits: []Edit{{
			File: "tools/shelf.go",
			Old:  "append(serviceErrors, noRecord, alreadySaved)",
			New:  "append(serviceErrors, noRecord, alreadySaved, queueFull)",
		}},
		Rules: []string{"error-contract-reason-unique"},
	},
	{
		ID:      "M23-reason-kebab-case",
		Mistake: "a tool's own entry names its reason in kebab case, stale-version",
		Edits: []Edit{{
			File: "tools/contract.go",
			Old:  `Reason:   "stale_version",`,
			New:  `Reason:   "stale-version",`,
		}},
		Rules: []string{"error-contract-reason-format"},
	},
	{
		ID:      "M24-credential-in-shared-recovery",
		Mistake: "the service's shared contract tells the caller, in api_key_rejected's Recovery, the staging key that works",
		Edits: []Edit{{
			File: "tools/contract.go",
			Old:  "Recovery:  \"Tell the server's operator that the catalog API key is invalid; no catalog tool works until it is replaced.\",",
			New:  "Recovery:  \"Tell the server's operator that the catalog API key is invalid; the key that works in staging is eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjYXRhbG9nIn0.c2lnbmF0dXJlLXN0YWdpbmc\",",
		}},
		Rules: []string{"no-credential-literal"},
	},
	{
		ID:      "M25-credential-in-service-message",
		Mistake: "the service's message names the catalog by a URL with the reader's password in it",
		Edits: []Edit{{
			File: "upstream/client.go",
			Old:  `mcperr.ServiceUnavailable("The catalog cannot be reached",`,
			New:  `mcperr.ServiceUnavailable("The catalog at https://reader:Q7vLm2xPz9tK@api.catalog.example/v1 cannot be reached",`,
		}},
		Rules: []string{"no-credential-literal"},
	},
	{
		ID:      "M26-credential-in-handler-data",
		Mistake: "save_record's failure carries, as data for debugging, the shelf's database URL with its password",
		Edits: []Edit{{
			File: "tools/shelf.go",
			Old:  `ctx.Fail(alreadySaved, "Record "+in.ID+" is already on the shelf", ctx.RecoveryFor(alreadySaved))`,
			New: `ctx.Fail(alreadySaved, "Record "+in.ID+" is already on the shelf", ctx.RecoveryFor(alreadySaved),
					mcperr.WithData(map[string]any{"shelf": "postgres://shelf:pX7r2mQ9vL@db.internal:5432/shelf"}))`,
		}},
		Rules: []string{"no-credential-literal"},
	},
	{
		ID:      "M27-credential-words-in-prose",
		Mistake: "negative: api_key_rejected's Recovery speaks of the API key and the password in prose, and holds no credential",
		Edits: []Edit{{
			File: "tools/contract.go",
			Old:  "Recovery:  \"Tell the server's operator that the catalog API key is invalid; no catalog tool works until it is replaced.\",",
			New:  "Recovery:  \"Ask the operator for a new catalog API key; the password of the user's account plays no part.\",",
		}},
	},
	{
		ID:      "M28-credential-words-after-colon",
		Mistake: "negative: api_key_rejected's When says, after a colon, what is wrong with the key's token, and holds no credential",
		Edits: []Edit{{
			File: "tools/contract.go",
			Old:  `When:      "The catalog refused the server's API key",`,
			New:  `When:      "The catalog refused the server's API key: its token is revoked, expired, or lacks the read scope",`,
		}},
	},
}
