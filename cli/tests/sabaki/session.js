// Drives kosumi through @sabaki/gtp as Sabaki 0.60 does: attach, sync with
// pipelined commands (ControllerStateTracker, Sabaki's own sync code),
// analysis streams stopped by `protocol_version`, `*genmove_analyze`, quit.
//
// Usage: node session.js /path/to/kosumi [engine args...]
// Exits 0 when every check holds, 1 with a message on the first failure.

'use strict'

const {Controller, ControllerStateTracker} = require('@sabaki/gtp')

const [enginePath, ...engineArgs] = process.argv.slice(2)
if (enginePath == null) {
  console.error('usage: node session.js /path/to/kosumi [args...]')
  process.exit(2)
}

const SIZE = 19
const LETTERS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ'
const OVERALL_TIMEOUT_MS = 120000

class CheckFailed extends Error {}

function check(condition, message) {
  if (!condition) throw new CheckFailed(message)
}

function step(text) {
  console.log(`-- ${text}`)
}

function vertexOf(x, y) {
  return `${LETTERS[x]}${SIZE - y}`
}

function isVertex(text) {
  let m = /^([A-HJ-Za-hj-z])(\d{1,2})$/.exec(text)
  if (m == null) return false
  let x = LETTERS.indexOf(m[1].toUpperCase())
  let row = +m[2]
  return x >= 0 && x < SIZE && row >= 1 && row <= SIZE
}

// Sabaki's reading of one `info ...` line (our own code, same rules): an
// optional trailing `ownership` with one float per point is cut off first;
// the rest is split on `info`; in each part a trailing run of vertices is
// the PV (cut at its first pass), key/value pairs come before it with the
// word `pv` last; a candidate whose move is not a vertex is dropped.
function parseInfoLine(line) {
  let ownership = null
  let at = line.search(/\sownership\s/)
  if (at >= 0) {
    ownership = line
      .slice(at)
      .trim()
      .split(/\s+/)
      .slice(1)
    line = line.slice(0, at)
  }
  let candidates = line
    .split(/\s*info\s+/)
    .slice(1)
    .map(part => part.trim())
    .map(part => {
      let pvMatch = part.match(/(pass|[A-Za-z]\d+)(\s+(pass|[A-Za-z]\d+))*$/)
      if (pvMatch == null) return {bad: part}
      let head = part.slice(0, pvMatch.index).trim().split(/\s+/)
      check(head[head.length - 1] === 'pv', `no 'pv' before the PV in: ${part}`)
      let tokens = head.slice(0, -1)
      check(tokens.length % 2 === 0, `odd key/value list in: ${part}`)
      let fields = {}
      for (let i = 0; i < tokens.length; i += 2) fields[tokens[i]] = tokens[i + 1]
      let pv = pvMatch[0].split(/\s+/)
      let pass = pv.indexOf('pass')
      fields.pv = pass < 0 ? pv : pv.slice(0, pass)
      return fields
    })
  for (let c of candidates) check(c.bad == null, `no PV at the end of: ${c.bad}`)
  return {
    candidates: candidates.filter(c => c.move != null && isVertex(c.move)),
    all: candidates,
    ownership
  }
}

// Checks one candidate; `kata` selects the win-rate scale (Sabaki 0.60 picks
// it by the command name).
function checkCandidate(c, kata, occupied, where) {
  check(isVertex(c.move), `${where}: move '${c.move}' is not a vertex`)
  check(!occupied.has(c.move.toUpperCase()), `${where}: move ${c.move} is on a stone`)
  check(/^\d+$/.test(c.visits || ''), `${where}: visits '${c.visits}' is not a count`)
  check(c.winrate != null, `${where}: no winrate`)
  if (kata) {
    check(/^-?\d*\.\d+$/.test(c.winrate), `${where}: kata winrate '${c.winrate}' is not a float`)
    let w = +c.winrate
    check(w >= 0 && w <= 1, `${where}: kata winrate ${w} outside [0,1]`)
    check(c.scoreLead != null && isFinite(+c.scoreLead), `${where}: no numeric scoreLead`)
  } else {
    check(/^\d+$/.test(c.winrate), `${where}: lz winrate '${c.winrate}' is not an integer`)
    let w = +c.winrate
    check(w >= 0 && w <= 10000, `${where}: lz winrate ${w} outside 0..10000`)
  }
  check(c.pv.length >= 1, `${where}: empty PV`)
  check(
    c.pv[0].toUpperCase() === c.move.toUpperCase(),
    `${where}: PV starts with ${c.pv[0]}, not the move ${c.move}`
  )
  for (let v of c.pv) check(isVertex(v), `${where}: PV vertex '${v}' is off the board`)
  if (c.order != null) check(/^\d+$/.test(c.order), `${where}: order '${c.order}'`)
}

function waitFor(predicate, what, ms = 20000) {
  return new Promise((resolve, reject) => {
    let started = Date.now()
    let timer = setInterval(() => {
      if (predicate()) {
        clearInterval(timer)
        resolve()
      } else if (Date.now() - started > ms) {
        clearInterval(timer)
        reject(new CheckFailed(`timed out after ${ms} ms waiting for ${what}`))
      }
    }, 10)
  })
}

// The stones the engine holds, as a set of upper-case vertices.
async function stones(controller) {
  let set = new Set()
  for (let color of ['black', 'white']) {
    let r = await controller.sendCommand({name: 'list_stones', args: [color]})
    check(!r.error, `list_stones ${color} failed: ${r.content}`)
    for (let v of r.content.split(/\s+/).filter(x => x !== '')) set.add(v.toUpperCase())
  }
  return set
}

function setsEqual(a, b) {
  return a.size === b.size && [...a].every(x => b.has(x))
}

// Runs an analysis command until `minInfos` info lines arrived, then stops
// it the way Sabaki does: by sending `protocol_version`.
async function analyzeAndStop(controller, command, kata, occupied, minInfos) {
  let where = `${command.name} ${command.args.join(' ')}`
  let lines = []
  let parsed = []
  let order = []
  let analysis = controller
    .sendCommand(command, ({line}) => {
      lines.push(line)
      if (line.startsWith('info ')) parsed.push(parseInfoLine(line))
    })
    .then(r => (order.push('analysis'), r))
  await waitFor(() => parsed.length >= minInfos, `${minInfos} info lines from ${where}`)
  let stopper = controller
    .sendCommand({name: 'protocol_version'})
    .then(r => (order.push('protocol_version'), r))
  let [response, pv] = await Promise.all([analysis, stopper])
  check(!response.error, `${where} answered an error: ${response.content}`)
  check(order[0] === 'analysis', `${where}: protocol_version was answered before the stream ended`)
  check(!pv.error && pv.content === '2', `protocol_version after ${where}: '${pv.content}'`)
  check(/^=\d*$/.test(lines[0]), `${where}: first line '${lines[0]}' is not a bare '='`)
  check(lines[lines.length - 1] === '', `${where}: the stream did not end with an empty line`)
  for (let line of lines.slice(1, -1)) {
    check(line.startsWith('info move '), `${where}: unexpected line '${line}'`)
  }
  for (let [i, p] of parsed.entries()) {
    check(p.candidates.length >= 1, `${where}: update ${i} has no candidate`)
    check(p.candidates.length === p.all.length, `${where}: a candidate without a vertex move`)
    let orders = p.candidates.map(c => c.order)
    p.candidates.forEach((c, k) => {
      checkCandidate(c, kata, occupied, `${where} update ${i} candidate ${k}`)
      if (c.order != null) check(+c.order === k, `${where}: order ${orders} not 0,1,...`)
    })
  }
  return parsed
}

// Runs a `*genmove_analyze` command to its end and returns the vertex played.
async function genmoveAnalyze(controller, command, kata, occupied) {
  let where = `${command.name} ${command.args.join(' ')}`
  let lines = []
  let response = await controller.sendCommand(command, ({line}) => lines.push(line))
  check(!response.error, `${where} answered an error: ${response.content}`)
  check(/^=\d*$/.test(lines[0]), `${where}: first line '${lines[0]}' is not a bare '='`)
  check(lines[lines.length - 1] === '', `${where}: no final empty line`)
  let body = lines.slice(1, -1)
  check(body.length >= 1, `${where}: no 'play' line`)
  let last = body[body.length - 1]
  let m = /^play (\S+)$/.exec(last)
  check(m != null, `${where}: last line '${last}' is not 'play <vertex>'`)
  let move = m[1]
  check(
    isVertex(move) || /^(pass|resign)$/i.test(move),
    `${where}: 'play ${move}' is no vertex, pass or resign`
  )
  check(!occupied.has(move.toUpperCase()), `${where}: played ${move} on a stone`)
  // kosumi ends the stream with the finished search before the play line.
  check(body.length >= 2, `${where}: no info line before 'play'`)
  for (let [i, line] of body.slice(0, -1).entries()) {
    check(line.startsWith('info move '), `${where}: unexpected line '${line}'`)
    for (let [k, c] of parseInfoLine(line).candidates.entries()) {
      checkCandidate(c, kata, occupied, `${where} update ${i} candidate ${k}`)
    }
  }
  return move.toUpperCase()
}

async function main() {
  let controller = new Controller(enginePath, engineArgs)
  let tracker = new ControllerStateTracker(controller)
  let stderr = []
  controller.on('stderr', ({content}) => stderr.push(content))
  let exitCode = null
  controller.on('stopped', ({signal}) => (exitCode = signal))

  // Traffic log: what was written and answered, in order.
  let traffic = []
  controller.on('command-sent', ({command}) => traffic.push(['sent', command.name]))
  controller.on('response-received', ({command}) => traffic.push(['answered', command.name]))

  try {
    step('attach: name, version, protocol_version, list_commands at once')
    controller.start()
    let [name, version, protocol, list] = await Promise.all(
      ['name', 'version', 'protocol_version', 'list_commands'].map(n =>
        controller.sendCommand({name: n})
      )
    )
    check(
      traffic.slice(0, 4).every(([kind]) => kind === 'sent'),
      'the four attach commands were not all written before the first answer'
    )
    check(!name.error && name.content === 'kosumi', `name: '${name.content}'`)
    check(!version.error && version.content.length > 0, `version: '${version.content}'`)
    check(!protocol.error && protocol.content === '2', `protocol_version: '${protocol.content}'`)
    check(!list.error, `list_commands failed: ${list.content}`)
    let commands = list.content.split('\n').map(x => x.trim())
    for (let c of [
      'lz-analyze',
      'kata-analyze',
      'genmove_analyze',
      'kata-genmove_analyze',
      'lz-genmove_analyze',
      'set_free_handicap',
      'undo',
      'komi',
      'boardsize',
      'clear_board',
      'play'
    ]) {
      check(commands.includes(c), `list_commands lacks ${c}`)
    }
    // Sabaki takes the first of analyze, kata-analyze, lz-analyze; plain
    // `analyze` would be read with the integer scale while we print floats.
    check(!commands.includes('analyze'), 'list_commands names plain analyze')

    step('sync: komi, boardsize, clear_board, set_free_handicap, 30 plays, pipelined')
    // Handicap D4 Q16, then 30 moves on a lattice that never touches them, so
    // nothing is captured.
    let lattice = []
    for (let y = 1; y < SIZE; y += 3) for (let x = 1; x < SIZE; x += 3) lattice.push([x, y])
    let history = [{name: 'set_free_handicap', args: ['D4', 'Q16']}]
    for (let i = 0; i < 30; i++) {
      let [x, y] = lattice[(i * 7) % lattice.length]
      history.push({name: 'play', args: [i % 2 === 0 ? 'W' : 'B', vertexOf(x, y)]})
    }
    check(new Set(history.slice(1).map(c => c.args[1])).size === 30, 'test bug: repeated moves')
    let mark = traffic.length
    await tracker.sync({komi: 0.5, boardsize: [SIZE, SIZE], history})
    let syncTraffic = traffic.slice(mark)
    let sent = syncTraffic.filter(([kind]) => kind === 'sent').map(([, n]) => n)
    check(
      sent.join(' ') === ['komi', 'boardsize', 'clear_board', 'set_free_handicap']
        .concat(Array(30).fill('play'))
        .join(' '),
      `sync sent: ${sent.join(' ')}`
    )
    // The replay (clear_board, handicap, plays) goes out before any answer.
    let firstPlayAnswer = syncTraffic.findIndex(([k, n]) => k === 'answered' && n === 'play')
    let writtenBefore = syncTraffic
      .slice(0, firstPlayAnswer)
      .filter(([k, n]) => k === 'sent' && n === 'play').length
    check(writtenBefore === 30, `only ${writtenBefore} plays were written before the first answer`)
    let expected = new Set(['D4', 'Q16', ...history.slice(1).map(c => c.args[1])])
    let occupied = await stones(controller)
    check(setsEqual(occupied, expected), `engine stones after sync: ${[...occupied].join(' ')}`)
    check(tracker.state.history.length === 31, 'the tracker did not record the sync')

    step('resync: two undos and two new plays, pipelined')
    let changed = history.slice(0, -2).concat([
      {name: 'play', args: ['W', 'K10']},
      {name: 'play', args: ['B', 'C3']}
    ])
    mark = traffic.length
    await tracker.sync({komi: 0.5, boardsize: [SIZE, SIZE], history: changed})
    sent = traffic
      .slice(mark)
      .filter(([kind]) => kind === 'sent')
      .map(([, n]) => n)
    check(sent.join(' ') === 'undo undo play play', `resync sent: ${sent.join(' ')}`)
    expected = new Set(['D4', 'Q16', ...changed.slice(1).map(c => c.args[1])])
    occupied = await stones(controller)
    check(setsEqual(occupied, expected), `engine stones after resync: ${[...occupied].join(' ')}`)

    step('lz-analyze B 10: integer win rates, stopped by protocol_version')
    await analyzeAndStop(controller, {name: 'lz-analyze', args: ['B', '10']}, false, occupied, 3)

    step('kata-analyze W 10 ownership true: float win rates, 361 ownership values')
    let kata = await analyzeAndStop(
      controller,
      {name: 'kata-analyze', args: ['W', '10', 'ownership', 'true']},
      true,
      occupied,
      3
    )
    for (let [i, p] of kata.entries()) {
      check(p.ownership != null, `kata-analyze update ${i}: no ownership`)
      check(
        p.ownership.length === SIZE * SIZE,
        `kata-analyze update ${i}: ${p.ownership.length} ownership values`
      )
      for (let v of p.ownership) {
        check(/^-?\d+(\.\d+)?$/.test(v) && Math.abs(+v) <= 1, `ownership value '${v}'`)
      }
    }

    step('optional arguments: minmoves, maxmoves, allow, avoid; bad ones refused')
    await analyzeAndStop(
      controller,
      {name: 'lz-analyze', args: ['B', '10', 'minmoves', '2', 'avoid', 'b', 'A1,T19', '1']},
      false,
      occupied,
      1
    )
    await analyzeAndStop(
      controller,
      {name: 'kata-analyze', args: ['B', 'interval', '10', 'maxmoves', '5', 'allow', 'b', 'C5,S15', '1']},
      true,
      occupied,
      1
    )
    let bad = await controller.sendCommand({name: 'lz-analyze', args: ['B', '10', 'bogus', '1']})
    check(bad.error, `lz-analyze with a bad argument was not refused: ${bad.content}`)
    let alive = await controller.sendCommand({name: 'protocol_version'})
    check(alive.content === '2', 'no answer after a refused analysis')

    step('analysis stopped by a sync, as Sabaki does when the user plays')
    let stream = []
    let streaming = controller.sendCommand({name: 'lz-analyze', args: ['W', '10']}, ({line}) =>
      stream.push(line)
    )
    await waitFor(() => stream.some(l => l.startsWith('info ')), 'an info line')
    let played = changed.concat([{name: 'play', args: ['W', 'S2']}])
    await Promise.all([
      streaming,
      controller.sendCommand({name: 'protocol_version'}),
      tracker.sync({komi: 0.5, boardsize: [SIZE, SIZE], history: played})
    ])
    occupied = await stones(controller)
    check(occupied.has('S2'), 'the play after the stopped analysis was lost')

    step('genmove_analyze B 10 ends with its play line')
    let move = await genmoveAnalyze(
      controller,
      {name: 'genmove_analyze', args: ['B', '10']},
      false,
      occupied
    )
    let last = tracker.state.history[tracker.state.history.length - 1]
    check(
      last.name === 'play' && last.args[0] === 'B' && last.args[1] === move,
      `the tracker did not record 'play B ${move}' from the play line`
    )
    let after = await stones(controller)
    if (isVertex(move)) check(after.has(move), `genmove_analyze did not play ${move}`)
    occupied = after

    step('kata-genmove_analyze W 10 ownership true')
    move = await genmoveAnalyze(
      controller,
      {name: 'kata-genmove_analyze', args: ['W', '10', 'ownership', 'true']},
      true,
      occupied
    )
    after = await stones(controller)
    if (isVertex(move)) check(after.has(move), `kata-genmove_analyze did not play ${move}`)
    occupied = after

    step('lz-genmove_analyze B 10')
    await genmoveAnalyze(
      controller,
      {name: 'lz-genmove_analyze', args: ['B', '10']},
      false,
      occupied
    )

    step('quit')
    await controller.stop(10000)
    check(exitCode === 0, `the engine exited with ${exitCode} after quit`)
  } catch (err) {
    console.error(`FAILED: ${err instanceof CheckFailed ? err.message : err.stack}`)
    if (stderr.length > 0) console.error(`engine stderr (last lines):\n${stderr.slice(-20).join('\n')}`)
    console.error(`traffic (last 40): ${traffic.slice(-40).map(t => t.join(' ')).join(', ')}`)
    await controller.kill().catch(() => {})
    process.exit(1)
  }
  console.log('ok: kosumi speaks GTP as Sabaki expects')
  process.exit(0)
}

setTimeout(() => {
  console.error(`FAILED: the session did not finish within ${OVERALL_TIMEOUT_MS / 1000} s`)
  process.exit(1)
}, OVERALL_TIMEOUT_MS).unref()

main()
