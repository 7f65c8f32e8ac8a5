package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// cpuTicks is the CPU time the process has used so far, user plus system,
// in clock ticks, from /proc/<pid>/stat. For a process (the thread group
// leader) the kernel sums the times of all its threads.
func cpuTicks(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	return parseStat(b)
}

// parseStat reads utime+stime (fields 14 and 15) from the text of
// /proc/<pid>/stat. The command name, field 2, is in parentheses and may
// hold spaces and parentheses itself, so the fields are counted from the
// last ')'.
func parseStat(b []byte) (int64, error) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc stat: no ')' after the command name")
	}
	// After ")": field 3 (state) onwards.
	f := strings.Fields(string(b[i+1:]))
	const utime, stime = 14 - 3, 15 - 3
	if len(f) <= stime {
		return 0, fmt.Errorf("/proc stat: %d fields after the command name, want more than %d", len(f), stime)
	}
	u, err := strconv.ParseInt(f[utime], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("/proc stat: utime: %v", err)
	}
	s, err := strconv.ParseInt(f[stime], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("/proc stat: stime: %v", err)
	}
	return u + s, nil
}

// mem is what /proc/<pid>/status says of a process's resident memory, in
// KiB: VmRSS (resident now), VmHWM (the peak of VmRSS) and RssAnon (the
// anonymous part of VmRSS: heap and stacks, not the binary's pages).
type mem struct {
	RSS, HWM, Anon int64
}

// memKiB reads the resident memory of process pid.
func memKiB(pid int) (mem, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return mem{}, err
	}
	return parseStatus(b)
}

// parseStatus reads VmRSS, VmHWM and RssAnon from the text of
// /proc/<pid>/status.
func parseStatus(b []byte) (mem, error) {
	var m mem
	fields := map[string]*int64{"VmRSS": &m.RSS, "VmHWM": &m.HWM, "RssAnon": &m.Anon}
	seen := 0
	for line := range strings.Lines(string(b)) {
		key, val, ok := strings.Cut(line, ":")
		p := fields[key]
		if !ok || p == nil {
			continue
		}
		f := strings.Fields(val) // "12345 kB"
		if len(f) != 2 || f[1] != "kB" {
			return mem{}, fmt.Errorf("/proc status: %s: unexpected %q", key, strings.TrimSpace(val))
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return mem{}, fmt.Errorf("/proc status: %s: %v", key, err)
		}
		*p = n
		seen++
	}
	if seen != len(fields) {
		return mem{}, fmt.Errorf("/proc status: VmRSS, VmHWM or RssAnon missing")
	}
	return m, nil
}

// clockTicks is the length of a clock tick per second (USER_HZ) as `getconf
// CLK_TCK` prints it; 100 on Linux when getconf fails.
func clockTicks() int64 {
	out, err := exec.Command("getconf", "CLK_TCK").Output()
	if err == nil {
		if n, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64); err == nil && n > 0 {
			return n
		}
	}
	return 100
}
