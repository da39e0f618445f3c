package maassim

import (
	"fmt"
	"net/url"
	"strconv"
)

type jsonEvent struct {
	Username    string `json:"username"`
	Node        string `json:"node"`
	Hostname    string `json:"hostname"`
	ID          int    `json:"id"`
	Level       string `json:"level"`
	Created     string `json:"created"`
	Type        string `json:"type"`
	Description string `json:"description"`
}

type eventQuery struct {
	level, limit, after, before int
	hasAfter, hasBefore         bool
	filter                      machineFilter
}

func intParam(c *call, name string, def int) (int, bool, *apiError) {
	v := c.params.Get(name)
	if v == "" {
		return def, false, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, false, badRequest("Invalid %s: %s", name, v)
	}
	return n, true, nil
}

func parseEventQuery(c *call) (eventQuery, *apiError) {
	q := eventQuery{level: levelInfo}
	if v := c.params.Get("level"); v != "" {
		l, ok := levelNames[v]
		if !ok {
			return q, badRequest("Unrecognised log level: %s", v)
		}
		q.level = l
	}
	var aerr *apiError
	if q.limit, _, aerr = intParam(c, "limit", 100); aerr != nil {
		return q, aerr
	}
	if q.limit > 1000 {
		return q, badRequest("Requested number of events %d is greater than limit: 1000", q.limit)
	}
	q.limit = max(q.limit, 1)
	if q.after, q.hasAfter, aerr = intParam(c, "after", 0); aerr != nil {
		return q, aerr
	}
	if q.before, q.hasBefore, aerr = intParam(c, "before", 0); aerr != nil {
		return q, aerr
	}
	if q.hasAfter && q.hasBefore {
		return q, badRequest("There is undetermined behaviour when both `after` and `before` are specified.")
	}
	q.filter, aerr = parseFilter(c)
	return q, aerr
}

func (q eventQuery) wants(e event, m *machine) bool {
	if m == nil || !q.filter.match(m) {
		return false
	}
	if q.level == levelAudit {
		return e.level == levelAudit
	}
	return e.level >= q.level
}

func pageURI(c *call, key string, v int, drop string) string {
	p := url.Values{}
	for k, vs := range c.params {
		if k != drop && k != key {
			p[k] = vs
		}
	}
	p.Set("op", "query")
	if key != "" {
		p.Set(key, fmt.Sprint(v))
	}
	return apiRoot + "events/?" + p.Encode()
}
