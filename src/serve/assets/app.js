// The morris explorer: draws any board from its points and lines, shows every legal move with
// its perfect-play value, plays clicked moves, and keeps the position in the page address.
// Talks only to this server's /api; no build step, no dependencies.
'use strict';

const SVG = 'http://www.w3.org/2000/svg';
const UNIT = 100; // board units between neighbouring grid points
const MARGIN = 84;
// The rule switches' names, from `/api/variants` (the server's one table of them).
let SWITCHES = [];

const state = {
  games: [],        // [{variant, ruleSet, label}] from /api/variants
  game: null,       // the selected one
  root: null,       // the game tree (game.js): the start, its moves and their variations
  line: [],         // the nodes of the shown line, root first: through the shown node, then on
                    // along the main continuations
  at: 0,            // the shown ply of the line
  data: null,       // /api/explore of the shown position
  selected: null,   // the piece chosen to move (moving phase)
  pending: null,    // {from, to, options}: a mill is formed, the removal is to choose
  hover: null,      // the move under the pointer in the list
  tab: 'explore',
  human: 'w',       // the side the user plays in the Play tab
  strength: 'perfect', // how well the database plays in Play (`/api/bestmove`'s `strength`)
  hideEval: false,
  request: 0,       // the latest position request; older answers are dropped
  imports: 0,       // the latest game import, likewise
  engineNote: '',
  focus: null,      // the point that last had the keyboard focus
  flipped: false,   // the board turned half round
  addressError: '', // what the address asked for that this folder lacks, until the user moves on
  nMove: 100,       // Play's N-move rule: moves (plies) in a row without a mill's removal
  review: false,    // Play's review: the database does not move, either side may be played
  hint: null,       // the move Play's hint shows on the board, until the position changes
  course: null,     // the endgame course's lesson being played: {lesson, id, result, status}
};

// The N-move rule's number unless the user or the address names another.
const N_MOVE_DEFAULT = 100;

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined) e.setAttribute(k, v);
  }
  if (text !== undefined) e.textContent = text;
  return e;
}

function svg(tag, attrs = {}, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined) e.setAttribute(k, v);
  }
  if (text !== undefined) e.textContent = text;
  return e;
}

// ---------------------------------------------------------------- the API

function gameParams(game = state.game) {
  const p = { variant: game.variant.name };
  for (const s of SWITCHES) p[s] = game.ruleSet.rules[s];
  return p;
}

async function api(path, params) {
  const query = new URLSearchParams(params).toString();
  const response = await fetch(`/api/${path}${query ? '?' + query : ''}`);
  let body;
  try {
    body = await response.json();
  } catch (e) {
    throw new Error(`${response.status} ${response.statusText}`);
  }
  if (!response.ok) throw new Error(body.error || `${response.status} ${response.statusText}`);
  return body;
}

// Shows `message`, or else the address's error while it stands.
function showError(message) {
  const box = $('error');
  const text = message || state.addressError;
  box.textContent = text || '';
  box.hidden = !text;
}

// ---------------------------------------------------------------- words

const COLOR = { w: 'White', b: 'Black' };
const other = (c) => (c === 'w' ? 'b' : 'w');

function plies(n) {
  return `${n} ${n === 1 ? 'ply' : 'plies'}`;
}

// A move's value for the side to move, short.
function moveWords(m) {
  if (m.value === null) return 'not solved';
  // A drawing move's quality: how many of the opponent's replies lose after it, and the chance
  // that an opponent moving at random loses within `trap_depth` of its moves.
  if (m.value === 'draw' && m.losing_replies != null && m.trap_depth > 1) {
    return `draw · ${trapPercent(m)} in ${m.trap_depth} · ${m.losing_replies}/${m.replies} lose`;
  }
  if (m.value === 'draw' && m.losing_replies != null) return `draw · ${m.losing_replies}/${m.replies} lose`;
  if (m.value === 'draw') return 'draw';
  return `${m.value} in ${m.depth}`;
}

// A drawing move's trap chance as a whole percent ("96%"; "<1%" when small but not none).
function trapPercent(m) {
  const p = 100 * m.trap_chance;
  return p > 0 && p < 1 ? '<1%' : `${Math.round(p)}%`;
}

// What a drawing move's figures mean, for its tooltip.
function trapTitle(m) {
  if (m.value !== 'draw' || m.losing_replies == null) return '';
  const now = `${m.losing_replies} of the opponent's ${m.replies} replies lose at once`;
  if (!(m.trap_depth > 1)) return now;
  return `${now}; an opponent choosing its moves at random loses within ${m.trap_depth} of them `
    + `with a chance of ${trapPercent(m)}, if you keep the draw and set the most traps`;
}

// The position's value in words, naming the winner.
function verdictWords(d) {
  const mover = COLOR[d.turn];
  const opp = COLOR[other(d.turn)];
  if (d.value === null) return { text: 'Not solved', sub: 'solve its sector to see values' };
  if (d.moves.length === 0 && d.value === 'draw') {
    return { text: 'Draw', sub: 'game over: the board is full' };
  }
  if (d.moves.length === 0) {
    const onBoard = d.turn === 'w' ? d.white_on_board + d.white_hand : d.black_on_board + d.black_hand;
    const why = onBoard < 3 ? `${mover} has fewer than three pieces` : `${mover} cannot move`;
    return { text: `${opp} has won`, sub: `game over: ${why}` };
  }
  if (d.value === 'draw') return { text: 'Draw', sub: 'with perfect play from both sides' };
  const winner = d.value === 'win' ? mover : opp;
  return { text: `${winner} wins in ${plies(d.depth)}`, sub: `with perfect play; ${mover} to move` };
}

// ---------------------------------------------------------------- positions

// Pieces by point name from a position string: {a5: 'w', ...}.
function pieces(position, board) {
  const rows = position.split(' ')[0].split('/');
  const out = {};
  board.ranks.forEach((rank, i) => {
    const row = rows[i] || '';
    rank.forEach((name, j) => {
      if (row[j] === 'W') out[name] = 'w';
      else if (row[j] === 'B') out[name] = 'b';
    });
  });
  return out;
}

// Orders values from the mover's point of view, best first (as the API does), and drawing
// moves by their traps (a chance to four decimals), the most first.
function rank(m) {
  if (m.value === 'win') return m.depth;
  if (m.value === 'draw') return 10000 + (m.trap_chance == null ? 1 : 1 - m.trap_chance);
  if (m.value === 'loss') return 20000 - m.depth;
  return 30000;
}

// The best of some moves (the API lists moves best first).
function bestOf(moves) {
  return moves.reduce((best, m) => (best === null || rank(m) < rank(best) ? m : best), null);
}

function valueClass(m) {
  if (state.hideEval) return 'hidden';
  return m && m.value ? m.value : 'unknown';
}

// ---------------------------------------------------------------- the address

function encodeHash() {
  const p = new URLSearchParams();
  const g = state.game;
  p.set('variant', g.variant.name);
  if (!g.ruleSet.default) for (const s of SWITCHES) p.set(s, g.ruleSet.rules[s]);
  // The whole game: where it starts, its moves with their variations, and the node shown:
  // its ply when it is on the main line and not its last, else the moves that lead to it.
  p.set('position', state.root.position);
  const moves = moveList(state.root);
  if (moves) p.set('moves', moves);
  const shown = state.line[state.at];
  if (!onMainLine(shown)) p.set('at', movesTo(shown).join(','));
  else if (shown.children.length > 0) p.set('ply', String(state.at));
  if (state.nMove !== N_MOVE_DEFAULT) p.set('nmove', String(state.nMove));
  if (state.tab === 'play') {
    p.set('tab', 'play');
    p.set('side', state.human);
    if (state.strength !== 'perfect') p.set('strength', state.strength);
  }
  if (state.tab === 'stats' || state.tab === 'edit') p.set('tab', state.tab);
  return '#' + p.toString().replace(/%2F/g, '/').replace(/%2C/g, ',').replace(/%28/g, '(').replace(/%29/g, ')');
}

function updateHash() {
  if (state.addressError) return; // the address stays as given while its error is shown
  const hash = encodeHash();
  if (location.hash !== hash) history.replaceState(null, '', hash);
}

// The game and position an address names; the first game and its start when it names none.
// A variant or rules the folder does not hold are not replaced silently: the error stays on
// screen (and the address as given) over the game shown instead, until the user moves on.
function fromHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  const name = p.get('variant');
  state.addressError = '';
  // Without a variant: the first game whose start is solved (a page that opens on an unsolved
  // start offers nothing to explore), else the first.
  const first = state.games.find((g) => g.ruleSet.start !== null) || state.games[0];
  let moves = [];
  try {
    moves = parseMoveList(p.get('moves') || '');
  } catch (e) {
    state.addressError = `The address's moves cannot be read: ${e.message}.`;
  }
  const ply = p.has('ply') ? Number(p.get('ply')) : null;
  const at = p.has('at') ? p.get('at').split(',').filter((m) => m) : null;
  const shown = { moves, ply, at };
  if (!name) return { game: first, position: p.get('position') || first.variant.start_position, ...shown };
  const ofVariant = state.games.filter((g) => g.variant.name === name);
  const game = ofVariant.find((g) => SWITCHES.every((s) => !p.has(s) || p.get(s) === g.ruleSet.rules[s]));
  if (game) return { game, position: p.get('position') || game.variant.start_position, ...shown };
  const instead = ofVariant[0] || first;
  const asked = SWITCHES.filter((s) => p.has(s)).map((s) => `${s} ${p.get(s)}`).join(', ');
  const rules = {};
  for (const s of SWITCHES) if (p.has(s)) rules[s] = p.get(s);
  state.addressError = ofVariant.length === 0
    ? `The address asks for the variant "${name}", of which this folder holds no solved sectors `
      + `(it holds: ${[...new Set(state.games.map((g) => g.variant.name))].join(', ')}). `
      + `Showing ${label(instead)} instead.`
    : `The address asks for ${name} under ${asked}, which this folder does not hold (it holds `
      + `${ofVariant.map(label).join('; ')}). Showing ${label(instead)} instead.`;
  addCost({ variant: name, ...rules }, state.addressError);
  return { game: instead, position: instead.variant.start_position, moves: [], ply: null, at: null };
}

// Adds to the address's error what solving the game it asks for would cost, when the server
// knows that game (a variant and rules it can solve) and the error still stands.
async function addCost(game, error) {
  let data;
  try {
    data = await api('explore', { ...game, position: 'start' });
  } catch (e) {
    return; // a variant or rules the server does not know: the error says so already
  }
  // Only while the error it explains is shown.
  if (!data.solve_cost || state.addressError !== error) return;
  state.addressError = `${error}${costWords(data.solve_cost)}`;
  showError('');
}

// Opens the game an address names: its start, then its moves and their variations played one by
// one as the server lists them (a move that is not legal ends its line there, and the page says
// so), shown at the node `at` leads to, else at `ply` of the main line (default: its last).
async function openLine({ game, position, moves, ply, at }) {
  startLine(game, position);
  const id = ++state.request;
  let stopped = null;
  try {
    await growTree(game, state.root, moves, () => id !== state.request);
  } catch (e) {
    stopped = e;
  }
  if (id !== state.request) return; // another line was opened meanwhile
  if (stopped && stopped.move) state.addressError = `The address's ${stopped.message}; the line stops before it.`;
  const target = at ? follow(state.root, at) : null;
  if (at && !target) state.addressError = `The address's shown position (at=${at.join(',')}) is not in its game.`;
  const main = lineThrough(state.root);
  const shown = target || main[ply === null || !(ply >= 0) ? main.length - 1 : Math.min(Math.floor(ply), main.length - 1)];
  state.line = lineThrough(shown);
  state.at = shown.ply;
  show();
}

// Grows the tree from `from` by a move sequence and its variations (see `sequenceOf`), each
// move checked against the server's list. A move that is not legal throws an Error with
// `.move` set, after the legal ones before it in its line are in the tree; a refused start
// throws without. `stale()` says when another request has replaced this one.
// Each line (the main one, each variation) is one request to `/api/line`, which answers every
// position of it at once; the variations of its moves wait in a queue, in the order of the
// text, so that a node's continuations keep their order (main first, then each alternative).
async function growTree(game, from, sequence, stale) {
  const queue = [{ here: from, sequence }];
  for (let q = 0; q < queue.length; q++) {
    const { here, sequence: line } = queue[q];
    if (line.length === 0) continue;
    const data = await api('line', {
      ...gameParams(game),
      position: here.position,
      moves: line.map((x) => x.move).join(','),
    });
    if (stale()) return;
    let node = here;
    data.positions.forEach((explored, i) => {
      remember(node, explored);
      if (i === 0) node.position = explored.position; // as the server writes it
      if (i >= line.length || i + 1 >= data.positions.length) return;
      const m = explored.moves.find((x) => x.move === line[i].move);
      for (const v of line[i].variations) queue.push({ here: node, sequence: v });
      node = grow(node, m.move, m.position);
    });
    // The variations of the move that is not legal are not grown: the line stops before it.
    if (data.stopped) {
      const error = new Error(data.stopped.error);
      error.move = data.stopped.move;
      throw error;
    }
  }
}

// The game (variant and rule set) a game text's headers name: its variant (else the shown
// one's) under the rule switches it names, the default rule set for those it does not.
function gameOfHeaders(headers) {
  const given = headers.variant;
  const name = (given && SANMILL_VARIANTS[given.toLowerCase()]) || given || state.game.variant.name;
  const ofVariant = state.games.filter((g) => g.variant.name === name);
  if (ofVariant.length === 0) {
    throw new Error(`this folder holds no solved sectors of the variant "${name}" (it holds: `
      + `${[...new Set(state.games.map((g) => g.variant.name))].join(', ')})`);
  }
  const named = SWITCHES.filter((s) => headers[s] !== undefined);
  const fits = ofVariant.filter((g) => named.every((s) => headers[s] === g.ruleSet.rules[s]));
  const game = fits.find((g) => g.ruleSet.default) || fits[0];
  if (!game) {
    throw new Error(`this folder does not hold ${name} under ${named.map((s) => `${s} ${headers[s]}`).join(', ')} `
      + `(it holds ${ofVariant.map(label).join('; ')})`);
  }
  return game;
}

// Imports a game text: its variant, rules, start and every move and variation are checked
// before anything changes; a text that fails leaves the game shown as it was, and says why.
async function importGame(text) {
  // Its own count: a refused import leaves any position request of the page to finish.
  const id = ++state.imports;
  let game;
  let root;
  let parsed;
  try {
    parsed = parseGameText(text);
    game = gameOfHeaders(parsed.headers);
    // Where the game starts: this page's `Position`, else Sanmill's `FEN`, else the start.
    const fen = parsed.headers.fen;
    const position = parsed.headers.position
      || (fen ? sanmillPosition(fen, game.variant.board) : game.variant.start_position);
    const start = await api('explore', { ...gameParams(game), position });
    root = treeNode(start.position, null, null);
    await growTree(game, root, parsed.moves, () => id !== state.imports);
  } catch (e) {
    if (id === state.imports) showError(`Cannot import the game: ${e.message}.`);
    return;
  }
  if (id !== state.imports) return;
  state.addressError = '';
  const n = nMoveOf(parsed.headers.nmoverule);
  if (n !== null) setNMove(n);
  state.game = game;
  $('game').value = String(state.games.indexOf(game));
  state.root = root;
  const main = lineThrough(root);
  visit(main[main.length - 1]);
}

// The shown game as text, in the import box: a main line that ends in a draw by rule has that
// result, and an N-move rule other than the default is named.
function exportGame() {
  const switches = SWITCHES.map((s) => [s, state.game.ruleSet.rules[s]]);
  const main = lineThrough(state.root);
  const draw = main[main.length - 1].over ? null : drawByRule(main, state.nMove);
  const extra = state.nMove === N_MOVE_DEFAULT ? [] : [['NMoveRule', String(state.nMove)]];
  $('game-text-input').value = gameText(state.root, state.game.variant, switches, extra,
    draw ? draw.termination : null, (n) => annotation(n) || '');
}

// An N-move rule's number from text (a link or a game's header), or null when it is not one.
function nMoveOf(text) {
  if (text === null || text === undefined || !/^\d+$/.test(String(text).trim())) return null;
  const n = Number(text);
  return n >= 1 && n <= 1000 ? n : null;
}

// Sets the N-move rule for this game (from a link or a game text), without keeping it as the
// user's own choice.
function setNMove(n) {
  state.nMove = n;
  $('n-move').value = String(n);
}

// ---------------------------------------------------------------- loading positions

function startLine(game, position) {
  // A new line leaves the course's lesson (a lesson starts its line, then sets it).
  if (state.course) {
    state.course = null;
    renderCourse();
  }
  state.game = game;
  state.root = treeNode(position, null, null);
  state.line = [state.root];
  state.at = 0;
  $('game').value = String(state.games.indexOf(game));
}

async function show() {
  const id = ++state.request;
  const entry = state.line[state.at];
  document.body.dataset.ready = 'false';
  let data;
  try {
    data = await api('explore', { ...gameParams(), position: entry.position });
  } catch (e) {
    if (id !== state.request) return;
    showError(e.message);
    document.body.dataset.ready = 'error';
    if (state.data === null) render();
    return;
  }
  if (id !== state.request) return;
  showError('');
  entry.position = data.position; // as the server writes it
  remember(entry, data);
  state.data = data;
  state.selected = null;
  state.pending = null;
  state.hover = null;
  state.hint = null;
  if (state.engineNote.startsWith('Hint:')) state.engineNote = '';
  updateHash();
  render();
  courseCheck();
  document.body.dataset.position = data.position;
  document.body.dataset.ready = 'true';
  engineTurn();
}

// Opens a pasted position as a new line, only once the server accepts it: a position it refuses
// leaves the board and the line as they were, and says why.
async function openPosition(text) {
  try {
    await api('explore', { ...gameParams(), position: text });
  } catch (e) {
    showError(`Cannot open "${text}": ${e.message}`);
    return;
  }
  state.addressError = '';
  startLine(state.game, text);
  show();
}

function go(at) {
  if (at < 0 || at >= state.line.length || at === state.at) return;
  state.at = at;
  show();
}

// Plays a move from the shown position: along the line when it goes on so, else into the
// variation that begins with it, which is made when new (the line played before stays).
function play(move) {
  if (!move) return;
  state.addressError = '';
  visit(grow(state.line[state.at], move.move, move.position));
}

// Shows a node of the tree, with the line through it.
function visit(n) {
  state.line = lineThrough(n);
  state.at = n.ply;
  show();
}

// ---------------------------------------------------------------- the game against the database

// Play's draw rules (data/rules.md): the game is drawn when the position (board, hands and side
// to move) occurs a third time in the line, or after `n` moves in a row, by either side, that
// slide or fly a piece without a removal. As in Sanmill, placements are not counted: like a
// removal, a placement cannot be undone (a hand shrinks), so it starts the count again, and
// neither rule bites before the moving phase. `line` is [{position, move}] up to the shown
// position. Returns {reason (in words), termination (for the game text)}, or null.
function drawByRule(line, n) {
  const now = line[line.length - 1].position;
  const seen = line.filter((e) => e.position === now).length;
  if (seen >= 3) {
    return {
      reason: `Draw by threefold repetition: this position has occurred ${seen} times.`,
      termination: 'threefold repetition',
    };
  }
  let quiet = 0;
  for (let i = line.length - 1; i > 0 && line[i].move.includes('-') && !line[i].move.includes('x'); i--) quiet += 1;
  if (quiet >= n) {
    return {
      reason: `Draw by the ${n}-move rule: ${quiet} moves in a row without a mill.`,
      termination: `${n}-move rule`,
    };
  }
  return null;
}

// The draw rule that ends the game in Play at the shown position, or null.
function playDraw() {
  if (state.tab !== 'play' || !state.data || state.data.moves.length === 0) return null;
  return drawByRule(state.line.slice(0, state.at + 1), state.nMove);
}

// Whether Play is reviewing the game rather than playing it: the review switch is on, or the
// shown position is not the end of its line (the user stepped back through the game). The
// database moves only at a line's end, so that clicking through a game never changes it.
function reviewing() {
  const shown = state.line[state.at];
  return state.review || (shown !== undefined && shown.children.length > 0);
}

function humanToMove() {
  if (playDraw()) return false; // the game is over
  if (state.tab !== 'play' || !state.data || reviewing()) return true;
  return state.data.turn === state.human;
}

function engineTurn() {
  const d = state.data;
  const draw = playDraw();
  if (draw) {
    state.engineNote = `${draw.reason} The game is over.`;
    renderPlayPanel();
    renderStatus();
    return;
  }
  if (state.engineNote.startsWith('Draw by')) { // stepped back from a drawn end
    state.engineNote = '';
    renderPlayPanel();
  }
  // Reviewing, the last move's note is not about the position shown: the resting note says
  // why the database waits.
  if (state.tab === 'play' && reviewing() && state.engineNote && !state.engineNote.startsWith('Hint:')) {
    state.engineNote = '';
    renderPlayPanel();
  }
  if (state.tab !== 'play' || !d || humanToMove() || d.moves.length === 0) return;
  if (d.value === null) {
    state.engineNote = unsolvedNote(d);
    renderPlayPanel();
    return;
  }
  const id = state.request;
  state.engineNote = 'Thinking…';
  renderPlayPanel();
  const seed = String(Math.floor(Math.random() * 2 ** 32));
  api('bestmove', { ...gameParams(), position: d.position, seed, strength: state.strength })
    .then((best) => {
      if (id !== state.request) return;
      // With the evaluation hidden, the reason (which names the value) is too.
      state.engineNote = state.hideEval
        ? `The database played ${best.move}.`
        : `The database played ${best.move}: ${best.reason}.`;
      setTimeout(() => {
        if (id === state.request) play(d.moves.find((m) => m.move === best.move));
      }, 300);
    })
    .catch((e) => {
      if (id === state.request) showError(e.message);
    });
}

// The levels of `/api/bestmove`, strongest first (scripts/strength_ladder.py measures them).
const STRENGTHS = ['perfect', 'expert', 'strong', 'advanced', 'intermediate', 'club', 'casual', 'novice'];

function setStrength(strength) {
  state.strength = STRENGTHS.includes(strength) ? strength : 'perfect';
  $('strength').value = state.strength;
}

// Endgame practice: the sectors offered are the solved ones of the moving phase (no pieces in
// hand), most pieces first; a start asks the server for a random position of the sector with
// the value chosen for the side to move, which the user then plays.
async function fillPractice() {
  const select = $('practice-sector');
  const game = state.game;
  if (select.dataset.game === label(game)) return;
  let stats;
  try {
    stats = await api('stats', gameParams(game));
  } catch (e) {
    select.replaceChildren(el('option', { value: '' }, 'nothing solved'));
    return;
  }
  if (state.game !== game) return;
  const moving = stats.sectors.map((x) => x.sector.split('-').map(Number))
    .filter(([w, b, wh, bh]) => wh === 0 && bh === 0 && w >= 3 && b >= 3)
    .sort((x, y) => y[0] + y[1] - x[0] - x[1] || y[0] - x[0]);
  select.replaceChildren(...moving.map(([w, b]) => el('option', { value: `${w}-${b}-0-0` }, `${w} against ${b}`)));
  select.dataset.game = label(game);
  practiceCounts.clear();
  for (const x of stats.sectors) practiceCounts.set(x.sector, x);
  practiceGoals();
  renderCourse();
}

// The endgame course (after Sanmill's issue #807: 7 against 4, 5 against 4, 3 against 4, 3
// against 3): each lesson a random position of its sector with its goal for the user, a win at
// least `depth` plies from the end where the sector has one that deep.
const COURSE = [
  { w: 7, b: 4, goal: 'win', depth: 9 },
  { w: 5, b: 4, goal: 'win', depth: 11 },
  { w: 4, b: 3, goal: 'win', depth: 11 },
  { w: 3, b: 4, goal: 'draw' },
  { w: 3, b: 3, goal: 'win', depth: 9 },
];
// How many of the user's moves keep a draw to pass a lesson of holding one.
const COURSE_DRAW_MOVES = 10;
const COURSE_GOALS = { win: 'win', draw: 'hold the draw' };

function lessonSector(l) {
  return `${l.w}-${l.b}-0-0`;
}

function lessonName(l) {
  return `${l.w} against ${l.b}: ${COURSE_GOALS[l.goal]}`;
}

// The lessons this game's solved sectors give (a sector with positions of the goal's value).
function courseLessons() {
  return COURSE.filter((l) => (practiceCounts.get(lessonSector(l)) || {})[l.goal] > 0);
}

function courseKey() {
  return `morris.course.${label(state.game)}`;
}

function coursePassed() {
  try {
    const v = JSON.parse(localStorage.getItem(courseKey()) || '[]');
    return new Set(Array.isArray(v) ? v : []);
  } catch (e) {
    return new Set();
  }
}

function renderCourse() {
  const lessons = courseLessons();
  const passed = coursePassed();
  $('course').hidden = lessons.length === 0;
  $('course-lessons').replaceChildren(...lessons.map((l) => {
    const id = lessonSector(l) + l.goal;
    const li = el('li', {
      'data-lesson': id,
      class: [passed.has(id) ? 'passed' : '', state.course && state.course.id === id ? 'current' : ''].join(' ').trim() || null,
    });
    const b = el('button', { type: 'button' }, lessonName(l));
    b.addEventListener('click', () => startLesson(l));
    li.append(b);
    return li;
  }));
  const c = state.course;
  $('course-status').textContent = c ? c.status : '';
  $('course-next').hidden = !(c && c.result === 'passed' && lessons.indexOf(c.lesson) + 1 < lessons.length);
}

async function startLesson(lesson) {
  const row = practiceCounts.get(lessonSector(lesson));
  const params = {
    ...gameParams(), sector: lessonSector(lesson), value: lesson.goal, side: state.human,
    seed: String(Math.floor(Math.random() * 2 ** 32)),
  };
  // As deep as asked where the sector goes that deep, else its deepest.
  if (lesson.depth) params.min_depth = String(Math.min(lesson.depth, row.max_depth));
  const found = await openPractice(params, 'lesson');
  if (!found) return;
  const lessons = courseLessons();
  state.course = {
    lesson,
    id: lessonSector(lesson) + lesson.goal,
    result: null,
    status: `Lesson ${lessons.indexOf(lesson) + 1} of ${lessons.length}, ${lessonName(lesson)}: `
      + `you play ${COLOR[state.human]}${lesson.goal === 'win' ? `, ${found.depth} plies from the end with perfect play` : ''}.`,
  };
  renderCourse();
  show();
}

// After each position of a lesson: passed when the goal is reached (the game won; the draw kept
// for COURSE_DRAW_MOVES of the user's moves, or to a draw by rule), failed when a move of the
// user's gave it away. Progress is kept per game in the browser.
function courseCheck() {
  const c = state.course;
  const d = state.data;
  if (!c || c.result || state.tab !== 'play' || reviewing() || !d || d.value === null) return;
  const forUser = d.turn === state.human ? d.value : { win: 'loss', loss: 'win', draw: 'draw' }[d.value];
  const over = d.moves.length === 0 || playDraw() !== null;
  const userMoves = state.line.slice(0, state.at).filter((e) => e.turn === state.human).length;
  let result = null;
  if (c.lesson.goal === 'win') {
    if (forUser !== 'win') result = 'failed';
    else if (over) result = 'passed';
  } else if (forUser === 'loss') {
    result = 'failed';
  } else if (forUser === 'win' || over || userMoves >= COURSE_DRAW_MOVES) {
    result = 'passed';
  }
  if (!result) return;
  c.result = result;
  const name = lessonName(c.lesson);
  if (result === 'passed') {
    const passed = coursePassed();
    passed.add(c.id);
    localStorage.setItem(courseKey(), JSON.stringify([...passed]));
    c.status = `Passed: ${name}. ${c.lesson.goal === 'win' ? 'You won.' : `You kept the draw for ${userMoves} moves.`}`;
  } else {
    const now = forUser === 'draw' ? 'a draw: the win is gone' : 'lost';
    c.status = `Not this time: after your last move the position is ${now}. Step back to see `
      + 'where, or click the lesson again for a new position.';
  }
  renderCourse();
}

// The sectors' counts of each value, for the goals practice offers.
const practiceCounts = new Map();
const GOAL_WORDS = { win: 'win a won position', draw: 'hold a draw', loss: 'defend a lost position' };

// A share in words, to two significant digits: "62%", "0.31%", "0.0042%".
function share(part, whole) {
  const p = (100 * part) / whole;
  if (p >= 10) return `${Math.round(p)}%`;
  return `${Number(p.toPrecision(2))}%`;
}

// The goals for the chosen sector: each with its share of the sector's positions, a goal that
// no position of it gives not offered (the choice moves to one that is).
function practiceGoals() {
  const row = practiceCounts.get($('practice-sector').value);
  const goal = $('practice-goal');
  for (const option of goal.options) {
    const count = row ? row[option.value] : 0;
    option.disabled = !row || count === 0;
    option.textContent = row
      ? `${GOAL_WORDS[option.value]} (${count === 0 ? 'none' : share(count, row.positions)})`
      : GOAL_WORDS[option.value];
  }
  if (goal.selectedOptions[0]?.disabled) {
    const open = [...goal.options].find((o) => !o.disabled);
    if (open) goal.value = open.value;
  }
  $('practice-start').disabled = !row || [...goal.options].every((o) => o.disabled);
}

async function startPractice() {
  const sector = $('practice-sector').value;
  if (!sector) return;
  const seed = String(Math.floor(Math.random() * 2 ** 32));
  const value = $('practice-goal').value;
  const depth = Math.round(Number($('practice-depth').value));
  const params = { ...gameParams(), sector, value, side: state.human, seed };
  // A draw has no depth; a win or a loss at least this far from the end.
  if (value !== 'draw' && depth > 1) params.min_depth = String(Math.min(depth, 999));
  if (await openPractice(params, 'practice')) show();
}

// Asks `/api/practice` for a position and starts a line from it, the user playing the side to
// move; the answer, or null after saying why there is none (`what` names the request).
async function openPractice(params, what) {
  let found;
  try {
    found = await api('practice', params);
  } catch (e) {
    showError(`No ${what} position: ${e.message}`);
    return null;
  }
  state.addressError = '';
  state.engineNote = '';
  state.human = found.position.split(' ')[1] === 'b' ? 'b' : 'w';
  startLine(state.game, found.position);
  return found;
}

// A duration in words: "40 s", "12 min", "2 h 16 min".
function duration(seconds) {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

// A size in words: "450 MB", "28 GB".
function bytes(n) {
  const units = [['GB', 1e9], ['MB', 1e6], ['kB', 1e3]];
  for (const [unit, size] of units) {
    const v = n / size;
    if (v >= 1) return `${v < 10 ? v.toFixed(1).replace(/\.0$/, '') : Math.round(v)} ${unit}`;
  }
  return `${n} bytes`;
}

// What solving the missing sector costs, and a cheaper start where there is one. The time is
// the cost model's, a slow two-core machine's: the fastest measured takes about 60% of it
// (nine's whole game, modelled at 79 minutes, took 47 on an Intel Xeon VM).
function costWords(cost) {
  if (!cost) return '';
  let text = ` Solving it takes about ${duration(cost.seconds)} on two cores (a fast machine takes about `
    + `${duration(0.6 * cost.seconds)}) and ${bytes(cost.bytes)} of disk `
    + `(${cost.units} work unit${cost.units === 1 ? '' : 's'}).`;
  const c = cost.cheaper;
  if (c) {
    text += ` A cheaper start: \`${c.command}\` solves the endgames to ${c.max_pieces} pieces a side in `
      + `about ${duration(c.seconds)} (${bytes(c.bytes)}).`;
  }
  return text;
}

// ---------------------------------------------------------------- clicks on the board

function onPoint(name) {
  if (state.tab === 'edit') {
    editClick(name);
    return;
  }
  const d = state.data;
  if (!d || !humanToMove() || d.moves.length === 0) return;
  if (state.pending) {
    const m = state.pending.options.find((o) => o.remove === name);
    state.pending = null;
    if (m) {
      play(m);
      return;
    }
    renderBoard();
    return;
  }
  // Where the chosen piece goes, else a placement (both exist under Lasker's rules), else a
  // piece to move.
  if (state.selected) {
    const options = d.moves.filter((m) => m.from === state.selected && m.to === name);
    if (options.length > 0) {
      choose(options);
      return;
    }
  }
  const placements = d.moves.filter((m) => m.from === null && m.to === name);
  if (placements.length > 0) {
    state.selected = null;
    choose(placements);
    return;
  }
  const from = d.moves.some((m) => m.from === name) ? name : null;
  state.selected = from === state.selected ? null : from;
  renderBoard();
}

// One move plays; a mill's several removals wait for the piece to remove.
function choose(options) {
  if (options.length === 0) return;
  if (options.length === 1) {
    play(options[0]);
    return;
  }
  state.pending = { from: options[0].from, to: options[0].to, options };
  renderBoard();
}

// ---------------------------------------------------------------- drawing

// Where each point is drawn; flipped, the board is turned half round (Black's side at the
// bottom).
function geometry(board) {
  const maxFile = Math.max(...board.points.map((p) => p.file));
  const maxRank = Math.max(...board.points.map((p) => p.rank));
  const fx = (f) => MARGIN + (state.flipped ? maxFile - f : f) * UNIT;
  const fy = (r) => MARGIN + (state.flipped ? r : maxRank - r) * UNIT;
  const at = {};
  for (const p of board.points) at[p.name] = { x: fx(p.file), y: fy(p.rank) };
  return { at, fx, fy, width: 2 * MARGIN + maxFile * UNIT, height: 2 * MARGIN + maxRank * UNIT, maxRank };
}

function renderBoard() {
  const board = state.game.variant.board;
  const g = geometry(board);
  const root = $('board');
  root.replaceChildren();
  root.setAttribute('viewBox', `0 0 ${g.width} ${g.height}`);
  root.append(svg('rect', { class: 'board-bg', x: 0, y: 0, width: g.width, height: g.height, rx: 18 }));
  drawLabels(root, g, board);
  const d = state.data;
  const editing = state.tab === 'edit';
  const position = d ? d.position : state.line[state.at].position;
  const on = editing ? state.edit.on : pieces(position, board);
  drawLines(root, g, board, on);
  if (!editing) drawLastMove(root, g);
  const moves = d && !editing && humanToMove() ? d.moves : [];
  drawPieces(root, g, board, on, d ? d.turn : 'w');
  const marks = moveMarks(moves);
  if (state.selected && !state.pending) {
    const s = g.at[state.selected];
    root.append(svg('circle', { class: 'selected', cx: s.x, cy: s.y, r: 46 }));
  }
  drawMarks(root, g, marks, on);
  // The move under the pointer in the list, else Play's hint.
  const shownMove = state.hover || state.hint;
  if (shownMove && !state.pending) drawMove(root, g, shownMove);
  drawHits(root, g, board, on, marks, moves);
}

// Files and ranks that have points.
function drawLabels(root, g, board) {
  const files = [...new Set(board.points.map((p) => p.file))];
  const ranks = [...new Set(board.points.map((p) => p.rank))];
  for (const f of files) {
    root.append(svg('text', { class: 'label', x: g.fx(f), y: g.height - 24 }, String.fromCharCode(97 + f)));
  }
  for (const r of ranks) {
    root.append(svg('text', { class: 'label', x: 26, y: g.fy(r) }, String(r + 1)));
  }
}

// Closed mills under the lines, then the lines and the points.
function drawLines(root, g, board, on) {
  for (const line of board.lines) {
    for (let i = 0; i + 1 < line.length; i++) {
      const a = g.at[line[i]];
      const b = g.at[line[i + 1]];
      root.append(svg('line', { class: 'edge', x1: a.x, y1: a.y, x2: b.x, y2: b.y }));
    }
  }
  // Closed mills over the lines, in the owner's colour: seen at a glance.
  for (const mill of board.mills) {
    const c = on[mill[0]];
    if (!c || !mill.every((p) => on[p] === c)) continue;
    for (const line of board.lines) {
      for (let i = 0; i + 1 < line.length; i++) {
        if (mill.includes(line[i]) && mill.includes(line[i + 1])) {
          const a = g.at[line[i]];
          const b = g.at[line[i + 1]];
          root.append(svg('line', { class: `mill-edge ${c}`, x1: a.x, y1: a.y, x2: b.x, y2: b.y }));
        }
      }
    }
  }
  for (const p of board.points) {
    root.append(svg('circle', { class: 'spot', cx: g.at[p.name].x, cy: g.at[p.name].y, r: 10 }));
  }
}

// The move that led here.
function drawLastMove(root, g) {
  const last = state.line[state.at].move;
  const lastTo = last ? last.split('x')[0].split('-').pop() : null;
  const lastFrom = last && last.includes('-') ? last.split('-')[0] : null;
  for (const p of [lastFrom, lastTo]) {
    if (p && g.at[p]) root.append(svg('circle', { class: 'last', cx: g.at[p].x, cy: g.at[p].y, r: 47 }));
  }
  if (lastFrom && g.at[lastFrom] && g.at[lastTo]) arrow(root, g.at[lastFrom], g.at[lastTo], 'last-arrow');
  // Where the last move removed a piece: a cross on the emptied point.
  const removed = last && last.includes('x') ? last.split('x')[1] : null;
  if (removed && g.at[removed]) {
    const { x, y } = g.at[removed];
    const mark = svg('g', { class: 'removed', 'data-removed': removed });
    mark.append(svg('title', {}, `${removed}: a piece was removed here`));
    for (const [dx, dy] of [[1, 1], [1, -1]]) {
      mark.append(svg('line', { x1: x - 22 * dx, y1: y - 22 * dy, x2: x + 22 * dx, y2: y + 22 * dy }));
    }
    root.append(mark);
  }
}

// Pieces; while a removal is chosen, the moved piece shows at its new point.
function drawPieces(root, g, board, on, mover) {
  const pending = state.pending;
  for (const p of board.points) {
    let c = on[p.name];
    let cls = '';
    if (pending && pending.from === p.name) cls = ' ghost';
    if (pending && pending.to === p.name) { c = mover; cls = ' ghost'; }
    if (!c) continue;
    root.append(svg('circle', { class: `piece ${c}${cls}`, cx: g.at[p.name].x, cy: g.at[p.name].y, r: 37 }));
  }
}

// Where the moves go: point -> {moves, kind}.
function moveMarks(moves) {
  const marks = new Map();
  const mark = (point, m, kind) => {
    if (!marks.has(point)) marks.set(point, { moves: [], kind });
    marks.get(point).moves.push(m);
  };
  if (state.pending) {
    for (const m of state.pending.options) mark(m.remove, m, 'removal');
  } else if (moves.length > 0) {
    if (state.selected) {
      for (const m of moves.filter((x) => x.from === state.selected)) mark(m.to, m, 'target');
    } else {
      for (const m of moves) {
        if (m.from === null) mark(m.to, m, 'target');
        else mark(m.from, m, 'piece');
      }
    }
  }
  return marks;
}

// A target's label, readable without its colour: +depth for a win, −depth for a loss, = for a
// draw (with its trap chance where it was looked at past one move: "=96%"), ? for a move whose
// value is not solved.
function markLabel(m) {
  if (m.value === null) return '?';
  if (m.value === 'draw') return m.trap_depth > 1 ? `=${trapPercent(m)}` : '=';
  return `${m.value === 'win' ? '+' : '\u2212'}${m.depth}`;
}

// The marks, coloured by value (the best of the moves through a point).
function drawMarks(root, g, marks, on) {
  for (const [point, { moves: ms, kind }] of marks) {
    const best = bestOf(ms);
    const cls = valueClass(best);
    const { x, y } = g.at[point];
    const title = `${ms.map((m) => m.move).join(', ')}: ${state.hideEval ? '' : moveWords(best)}`;
    if (kind === 'target') {
      const t = svg('circle', { class: `target ${cls}`, cx: x, cy: y, r: 30 });
      t.append(svg('title', {}, title));
      root.append(t);
      if (!state.hideEval) {
        const label = markLabel(best);
        root.append(svg('text', { class: `depth ${cls}${label.length > 3 ? ' long' : ''}`, x, y }, label));
      }
    } else {
      const ring = svg('circle', { class: `ring ${cls}`, cx: x, cy: y, r: 44 });
      ring.append(svg('title', {}, title));
      root.append(ring);
      if (state.hideEval) continue;
      // The value in words as well as in colour: on the piece to remove, and in a badge at the
      // corner of a piece that moves (its best move's value).
      const label = markLabel(best);
      if (kind === 'removal') {
        root.append(svg('text', { class: `depth on-${on[point] || 'w'}`, x, y, 'data-mark': point }, label));
      } else {
        root.append(svg('circle', { class: `badge ${cls}`, cx: x + 34, cy: y - 34, r: 19 }));
        root.append(svg('text', {
          class: `badge-text${label.length > 3 ? ' long' : ''}`, x: x + 34, y: y - 34, 'data-mark': point,
        }, label));
      }
    }
  }
}

// Click targets on top of everything. The board is one Tab stop: the point that last had the
// focus (else the first playable one) takes it, the arrow keys move it to the nearest point
// that way on the screen, and Enter or Space plays it. Each point has an accessible name:
// "d7, empty, placing wins in 21".
function drawHits(root, g, board, on, marks, moves) {
  const playable = (name) => marks.has(name) || (moves.length > 0 && moves.some((m) => m.from === name));
  const stop = board.points.some((p) => p.name === state.focus) ? state.focus
    : (board.points.find((p) => playable(p.name)) || board.points[0]).name;
  for (const p of board.points) {
    const hit = svg('circle', {
      class: playable(p.name) ? 'hit' : 'hit idle',
      cx: g.at[p.name].x, cy: g.at[p.name].y, r: 48,
      'data-point': p.name,
      tabindex: p.name === stop ? '0' : '-1',
      role: 'button',
      'aria-label': pointName(p.name, on[p.name], marks.get(p.name)),
    });
    hit.append(svg('title', {}, p.name));
    hit.addEventListener('click', () => onPoint(p.name));
    hit.addEventListener('keydown', (e) => {
      const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
      if (step) {
        // The board's own keys: they neither scroll the page nor walk the game.
        e.preventDefault();
        e.stopPropagation();
        const next = nearestPoint(g, board, p.name, step);
        if (next) focusPoint(root, next);
        return;
      }
      if (e.key !== 'Enter' && e.key !== ' ') return;
      e.preventDefault();
      onPoint(p.name);
    });
    // A point focused by a click or by a script becomes the board's Tab stop as well.
    hit.addEventListener('focus', () => setStop(root, p.name));
    root.append(hit);
  }
  // A point that had the focus keeps it when the board is drawn again (after a move).
  if (state.focus && (document.activeElement === document.body || !document.activeElement)) {
    const again = root.querySelector(`[data-point="${state.focus}"]`);
    if (again) again.focus();
  }
}

// The point nearest to `from` in the screen direction `step` ([dx, dy] of -1, 0 or 1), or
// null at the board's edge: the nearest along that direction, a point off the line through
// `from` counting its sideways distance twice.
function nearestPoint(g, board, from, [dx, dy]) {
  const a = g.at[from];
  let best = null;
  let bestCost = Infinity;
  for (const p of board.points) {
    const b = g.at[p.name];
    const along = (b.x - a.x) * dx + (b.y - a.y) * dy;
    if (along <= 0) continue;
    const cost = along + 2 * Math.abs((b.x - a.x) * dy - (b.y - a.y) * dx);
    if (cost < bestCost) {
      bestCost = cost;
      best = p.name;
    }
  }
  return best;
}

// Makes point `name` the board's one Tab stop.
function setStop(root, name) {
  for (const h of root.querySelectorAll('[data-point]')) {
    h.setAttribute('tabindex', h.dataset.point === name ? '0' : '-1');
  }
  state.focus = name;
}

// Moves the board's Tab stop to point `name` and focuses it.
function focusPoint(root, name) {
  setStop(root, name);
  root.querySelector(`[data-point="${name}"]`).focus();
}

// A point's accessible name: its name, what stands on it, and what playing it gives.
function pointName(name, piece, mark) {
  const what = piece === 'w' ? 'white piece' : piece === 'b' ? 'black piece' : 'empty';
  if (!mark) return `${name}, ${what}`;
  const verb = { target: 'placing or moving here', piece: 'moving this piece', removal: 'removing this piece' }[mark.kind];
  const best = bestOf(mark.moves);
  const value = state.hideEval ? '' : best.value === null ? ' is not solved'
    : best.value === 'draw' ? ' draws' : ` ${best.value === 'win' ? 'wins' : 'loses'} in ${plies(best.depth)}`;
  return `${name}, ${what}, ${verb}${value}`;
}

// An arrow from one point to another, of class `cls` (its head `cls-head`).
function arrow(root, from, to, cls) {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len;
  const uy = dy / len;
  const end = { x: to.x - ux * 30, y: to.y - uy * 30 };
  root.append(svg('line', { class: cls, x1: from.x + ux * 20, y1: from.y + uy * 20, x2: end.x, y2: end.y }));
  const head = [
    [to.x - ux * 8, to.y - uy * 8],
    [end.x - uy * 16 - ux * 10, end.y + ux * 16 - uy * 10],
    [end.x + uy * 16 - ux * 10, end.y - ux * 16 - uy * 10],
  ];
  root.append(svg('polygon', { class: `${cls}-head`, points: head.map((p) => p.join(',')).join(' ') }));
}

function drawMove(root, g, m) {
  const to = g.at[m.to];
  if (m.from) {
    arrow(root, g.at[m.from], to, 'arrow');
  } else {
    root.append(svg('circle', { class: 'selected', cx: to.x, cy: to.y, r: 44 }));
  }
  if (m.remove) {
    const r = g.at[m.remove];
    root.append(svg('line', { class: 'cross', x1: r.x - 22, y1: r.y - 22, x2: r.x + 22, y2: r.y + 22 }));
    root.append(svg('line', { class: 'cross', x1: r.x - 22, y1: r.y + 22, x2: r.x + 22, y2: r.y - 22 }));
  }
}

function renderStatus() {
  const d = state.data;
  const verdict = $('verdict');
  const unsolved = $('unsolved');
  if (!d) {
    $('turn').textContent = '';
    verdict.textContent = '';
    return;
  }
  const places = d.moves.some((m) => m.from === null);
  const moves = d.moves.some((m) => m.from !== null);
  const phase = d.moves.length === 0 ? 'game over'
    : places && moves ? 'placing or moving' : places ? 'placing' : 'moving';
  $('turn').textContent = `${COLOR[d.turn]} to move · ${phase}`;
  for (const c of ['w', 'b']) {
    const onBoard = c === 'w' ? d.white_on_board : d.black_on_board;
    const hand = c === 'w' ? d.white_hand : d.black_hand;
    $(`count-${c}`).textContent = `${hand} in hand · ${onBoard} on board`;
    $(`player-${c}`).classList.toggle('to-move', d.turn === c && d.moves.length > 0);
  }
  verdict.dataset.value = d.value === null ? 'unknown' : d.value;
  verdict.dataset.depth = d.depth === null ? '' : String(d.depth);
  verdict.replaceChildren();
  const draw = playDraw();
  if (draw) {
    // The game is over by a draw rule, whatever perfect play would give from here.
    verdict.dataset.value = 'draw';
    verdict.dataset.depth = '';
    verdict.append('Drawn by rule', el('span', { class: 'sub' }, draw.reason));
  } else if (state.hideEval && d.moves.length > 0) {
    verdict.append('Evaluation hidden');
  } else {
    const w = verdictWords(d);
    verdict.append(w.text, el('span', { class: 'sub' }, w.sub));
  }
  unsolved.hidden = !d.unsolved;
  unsolved.textContent = d.unsolved ? `Not solved here: ${d.unsolved}.${costWords(d.solve_cost)}` : '';
}

function renderMoves() {
  const d = state.data;
  const list = $('moves');
  list.replaceChildren();
  const moves = d ? [...d.moves] : [];
  if (state.hideEval) moves.sort((a, b) => (a.move < b.move ? -1 : a.move > b.move ? 1 : 0));
  else moves.sort((a, b) => rank(a) - rank(b)); // stable: the API's order among equals
  $('move-count').textContent = d ? `(${moves.length}${d.turn ? `, for ${COLOR[d.turn]}` : ''})` : '';
  const placing = moves.some((m) => m.from === null);
  const moving = moves.some((m) => m.from !== null);
  const how = placing && moving ? 'Click a point to place a piece, or a piece and then where it goes'
    : placing ? 'Click a point to place a piece' : 'Click a piece, then where it goes';
  $('move-help').textContent = !d || moves.length === 0 ? ''
    : playDraw() ? 'The game is drawn: start a new game, or step back.'
    : !humanToMove() ? 'The database is to move.'
      : `${how}; when it closes a mill, click the piece to remove.`;
  for (const m of moves) {
    const cls = valueClass(m);
    const item = el('li', {
      class: cls,
      'data-move': m.move,
      'data-value': state.hideEval ? null : (m.value || 'unknown'),
      'data-depth': state.hideEval || m.depth === null ? '' : String(m.depth),
      'data-trap': state.hideEval || m.trap_chance == null ? null : String(m.trap_chance),
    });
    const traps = state.hideEval ? '' : trapTitle(m);
    const b = el('button', { type: 'button', title: `Play ${m.move}${traps ? `: ${traps}` : ''}` });
    b.append(el('span', { class: 'mv-name' }, m.move));
    if (!state.hideEval) b.append(el('span', { class: 'mv-val' }, moveWords(m)));
    b.disabled = !humanToMove();
    b.addEventListener('click', () => play(m));
    b.addEventListener('mouseenter', () => { state.hover = m; renderBoard(); });
    b.addEventListener('mouseleave', () => { state.hover = null; renderBoard(); });
    b.addEventListener('focus', () => { state.hover = m; renderBoard(); });
    b.addEventListener('blur', () => { state.hover = null; renderBoard(); });
    item.append(b);
    list.append(item);
  }
}

// A line entry keeps its position's value, for the chart.
function remember(entry, data) {
  entry.value = data.value;
  entry.depth = data.depth;
  entry.turn = data.turn;
  entry.over = data.moves.length === 0;
}

// How the move into line[i] played, from the values before and after it (for the mover):
// 'blunder' when it changed the result, 'inaccurate' when it kept it at another depth than the
// best (a slower win, a quicker loss), 'best', or null when a value is unknown.
function moveQuality(line, i) {
  const mark = annotation(line[i]);
  if (mark === null) return null;
  return mark === '??' || mark === '?' ? 'blunder' : mark === '?!' ? 'inaccurate' : 'best';
}

// The results in order, from the mover's side.
const RESULT_RANK = { loss: 0, draw: 1, win: 2 };

// A move's annotation from the values before and after it, for the mover: '??' when it threw
// away two steps of result (a win into a loss), '?' one (a win into a draw, a draw into a
// loss), '?!' when it kept the result at another depth than the best (a slower win, a quicker
// loss), '' for a best move, and null when a value is not known.
function annotation(n) {
  const before = n.parent;
  if (!before || before.value == null || n.value == null) return null;
  // The value after the move is the opponent's: turn it round.
  const got = { win: 'loss', draw: 'draw', loss: 'win' }[n.value];
  const lost = RESULT_RANK[before.value] - RESULT_RANK[got];
  if (lost >= 2) return '??';
  if (lost === 1) return '?';
  if (before.value === 'draw' || lost < 0) return '';
  return n.depth === before.depth - 1 ? '' : '?!';
}

// The review of the shown line: each side's errors, and the first move that changed the
// result. Null while a value of the line is not known.
function review(line) {
  const count = { w: { '??': 0, '?': 0, '?!': 0 }, b: { '??': 0, '?': 0, '?!': 0 } };
  let first = null;
  for (let i = 1; i < line.length; i++) {
    const mark = annotation(line[i]);
    if (mark === null) return null;
    if (!mark) continue;
    count[line[i - 1].turn][mark] += 1;
    if (first === null && mark !== '?!') first = i;
  }
  return { count, first };
}

// White's outlook at a line entry: +1 (White wins at once) to -1 (Black wins at once), 0 a
// draw; a win further away sits nearer the middle. null when not known.
function outlook(entry, longest) {
  if (entry.value == null) return null;
  if (entry.value === 'draw') return 0;
  const whiteWins = (entry.value === 'win') === (entry.turn === 'w');
  const size = 1 - 0.6 * Math.min(entry.depth, longest) / Math.max(longest, 1);
  return whiteWins ? size : -size;
}

// The value chart of the line: a point per ply, clickable; blunders and inaccuracies marked.
function renderChart() {
  const chart = $('chart');
  const known = state.line.filter((e) => e.value !== undefined);
  const hidden = state.hideEval || state.line.length < 2 || known.length < 2;
  // The page's Content-Security-Policy refuses inline style attributes: `hidden` shows nothing.
  chart.toggleAttribute('hidden', hidden);
  $('chart-key').hidden = hidden;
  chart.replaceChildren();
  if (hidden) return;
  const w = 600;
  const h = 160;
  const pad = 14;
  const n = state.line.length;
  const longest = Math.max(1, ...known.filter((e) => e.depth != null).map((e) => e.depth));
  const x = (i) => pad + (w - 2 * pad) * (n === 1 ? 0 : i / (n - 1));
  const y = (v) => h / 2 - (h / 2 - pad) * v;
  chart.setAttribute('viewBox', `0 0 ${w} ${h}`);
  chart.append(svg('line', { class: 'axis', x1: pad, y1: h / 2, x2: w - pad, y2: h / 2 }));
  let path = '';
  state.line.forEach((e, i) => {
    const v = e.value === undefined ? null : outlook(e, longest);
    if (v === null) return;
    path += `${path ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
  });
  chart.append(svg('path', { class: 'trace', d: path }));
  state.line.forEach((e, i) => {
    const v = e.value === undefined ? null : outlook(e, longest);
    if (v === null) return;
    const quality = i > 0 ? moveQuality(state.line, i) : null;
    const dot = svg('circle', {
      class: `ply ${quality || ''}${i === state.at ? ' current' : ''}`,
      cx: x(i), cy: y(v), r: quality === 'blunder' || quality === 'inaccurate' ? 7 : 4.5,
      'data-ply': String(i),
      'data-quality': quality || '',
    });
    const words = e.value === null ? 'not solved' : e.value === 'draw' ? 'draw'
      : `${COLOR[e.turn]} to move ${e.value === 'win' ? 'wins' : 'loses'} in ${plies(e.depth)}`;
    dot.append(svg('title', {}, `${i === 0 ? 'start' : e.move}: ${words}${quality && quality !== 'best' ? ` (${quality})` : ''}`));
    dot.addEventListener('click', () => go(i));
    chart.append(dot);
  });
}

// The shown line's review under the chart: each side's errors by kind, and the first move
// that changed the result, named.
function renderReview() {
  const box = $('review-summary');
  const r = state.line.length > 1 && !state.hideEval ? review(state.line) : null;
  box.hidden = r === null;
  if (r === null) {
    box.textContent = '';
    return;
  }
  const side = (c) => {
    const parts = ['??', '?', '?!'].filter((k) => r.count[c][k] > 0).map((k) => `${r.count[c][k]} ${k}`);
    return `${COLOR[c]} ${parts.length ? parts.join(', ') : 'no error'}`;
  };
  let text = `Review: ${side('w')}; ${side('b')}.`;
  if (r.first !== null) {
    const n = state.line[r.first];
    const before = state.line[r.first - 1];
    const got = { win: 'loss', draw: 'draw', loss: 'win' }[n.value];
    const blackFirst = state.root.position.split(' ')[1] === 'b';
    text += ` The first decisive error: ${moveLabel(n, blackFirst)} by ${COLOR[before.turn]}`
      + ` (a ${before.value} became a ${got}).`;
  } else {
    text += ' No move changed the result.';
  }
  box.textContent = text;
  box.dataset.first = r.first === null ? '' : String(r.first);
}

// The game with its variations: the main line, each variation indented after the move it
// replaces; every move numbered by pairs, as players count them (1. White's, 1… Black's, from
// whoever moved first). The shown line's moves carry their ply.
function renderLine() {
  const list = $('line');
  list.replaceChildren();
  const blackFirst = state.root.position.split(' ')[1] === 'b';
  list.append(lineItem(state.root, 'start'));
  lineItems(list, state.root, blackFirst);
  const shown = state.line[state.at];
  $('first').disabled = state.at === 0;
  $('undo').disabled = state.at === 0;
  $('redo').disabled = state.at >= state.line.length - 1;
  $('last').disabled = state.at >= state.line.length - 1;
  $('promote').disabled = variationStart(shown) === null;
  // Best play tells values: not while the evaluation is hidden.
  $('best-play').hidden = state.hideEval;
  if (state.hideEval) $('best-note').hidden = true;
  $('cut').disabled = shown.parent === null;
}

// The moves after `from`, main ones first, each alternative as a nested list after the move
// it replaces. Walked with a stack of its own, not by recursion (a game may nest more
// variations than the script's call stack holds frames): each entry is a list being filled
// with the continuations of `x` (`next`: its child to add next, 0 the main one).
// Variations nest in the move list up to this depth; deeper ones are listed at it, in order
// (a browser's layout gives out at about 1,500 nested lists).
const MAX_NESTING = 32;

function lineItems(list, from, blackFirst) {
  // A line's state: its list, its depth, and the list at the deepest nesting above it, where
  // variations deeper still are listed.
  walkLines(from, {
    line: () => ({ list, depth: 1, deepest: MAX_NESTING === 1 ? list : null }),
    main: (m, line) => line.list.append(lineItem(m, moveLabel(m, blackFirst), shownMark(m))),
    open: (a, line) => {
      const sub = el('ol', { class: 'variation' });
      sub.append(lineItem(a, moveLabel(a, blackFirst), shownMark(a)));
      const item = el('li', { class: 'variation' });
      item.append(sub);
      (line.depth < MAX_NESTING ? line.list : line.deepest).append(item);
      const depth = line.depth + 1;
      return { list: sub, depth, deepest: depth === MAX_NESTING ? sub : line.deepest };
    },
    close: () => {},
  });
}

function moveLabel(n, blackFirst) {
  const k = moveNumber(n, blackFirst);
  return `${k.number}${k.white ? '.' : '\u2026'} ${n.move}`;
}

// A move's annotation as the page shows it: none while the evaluation is hidden.
function shownMark(n) {
  return state.hideEval ? '' : annotation(n) || '';
}

// A move of the tree as a button that shows it, its annotation (`mark`) after its name.
function lineItem(n, label, mark = '') {
  const onLine = state.line[n.ply] === n;
  const b = el('button', {
    type: 'button',
    'data-ply': onLine ? String(n.ply) : null,
    'data-mark': mark || null,
    class: n === state.line[state.at] ? 'current' : onLine ? null : 'off',
    'aria-current': n === state.line[state.at] ? 'step' : null,
  }, label);
  if (mark) b.append(el('span', { class: `mark ${mark === '?!' ? 'inaccurate' : 'blunder'}` }, mark));
  // On the shown line, a click walks it (keeping the variation shown); elsewhere it shows the
  // line through that move.
  b.addEventListener('click', () => (onLine ? go(n.ply) : visit(n)));
  const item = el('li');
  item.append(b);
  return item;
}

// What the database will do, before it moves: it names the chosen strength, and where the
// position is not solved here it says so rather than promise moves it cannot make.
function restingNote() {
  const d = state.data;
  if (d && d.value === null) return unsolvedNote(d);
  if (state.review) return 'Reviewing: the database does not move; play either side, or step through the game.';
  if (d && reviewing()) {
    return 'Reviewing the game: the database moves again at the end of the line, or when you '
      + 'play a move here.';
  }
  const how = {
    perfect: 'perfectly',
    expert: 'at expert strength: it very rarely gives a result away',
    strong: 'at strong strength: now and then it picks a weaker solved move',
    advanced: 'at advanced strength: it gives a result away at times',
    intermediate: 'at intermediate strength: it gives a result away fairly often',
    club: 'at club strength: it makes some mistakes among the solved moves',
    casual: 'at casual strength: it makes many mistakes among the solved moves',
    novice: 'at novice strength: it makes mistakes at most turns where one is possible',
  }[state.strength] || 'perfectly';
  return `The database plays the other side ${how}.`;
}

function unsolvedNote(d) {
  return 'This position is not solved here, so the database cannot play it'
    + (d.unsolved ? ` (${d.unsolved})` : '') + '. Explore it instead: the values of its moves '
    + 'that are solved are shown there.';
}

function renderPlayPanel() {
  $('play-panel').hidden = state.tab !== 'play';
  for (const b of document.querySelectorAll('.side')) {
    b.setAttribute('aria-pressed', String(b.dataset.side === state.human));
  }
  $('engine').textContent = state.engineNote || restingNote();
  $('review').checked = state.review;
  // With the evaluation hidden, a hint names a best move when the user is to move.
  const d = state.data;
  $('hint').hidden = !(state.tab === 'play' && state.hideEval && d && d.value !== null
    && d.moves.length > 0 && humanToMove());
  // An unsolved position is no dead end: Explore shows whatever of it is solved.
  $('explore-here').hidden = !(state.tab === 'play' && state.data && state.data.value === null);
}

function render() {
  renderBoard();
  if (state.tab === 'edit') {
    renderEditor();
    return;
  }
  renderStatus();
  renderMoves();
  renderLine();
  renderChart();
  renderReview();
  renderPlayPanel();
  const input = $('position-input');
  if (document.activeElement !== input) input.value = state.line[state.at].position;
}

// ---------------------------------------------------------------- statistics

// The statistics tab's sectors: sorted and filtered in the page, the chart showing the first
// CHART_ROWS of them (a whole game's 318 bars would be a page 8,000 px tall), the table and the
// CSV all of them.
const CHART_ROWS = 40;
const statsView = { stats: null, game: null, sort: 'sector', descending: false };

// The stats columns, in `stats --json`'s order, for the table and the CSV.
const STATS_COLUMNS = ['sector', 'positions', 'win', 'draw', 'loss', 'max_depth'];
const CSV_COLUMNS = ['sector', 'positions', 'win', 'loss', 'draw', 'raw_positions', 'raw_win', 'raw_loss', 'raw_draw', 'max_depth'];

// A sector's sort key for `key`: its counts ("W-B-WF-BF": pieces in all, then each count),
// or a number.
function statsKey(s, key) {
  if (key === 'sector') {
    const n = s.sector.split('-').map(Number);
    return [n.reduce((t, x) => t + x, 0), ...n];
  }
  if (key === 'win' || key === 'draw' || key === 'loss') return [s.positions ? s[key] / s.positions : 0];
  return [s[key]];
}

// The sectors the tab's filter, phase and order select.
function statsRows() {
  const stats = statsView.stats;
  if (!stats) return [];
  const text = $('stats-filter').value.trim();
  const phase = $('stats-phase').value;
  const rows = stats.sectors.filter((s) => {
    const [, , wh, bh] = s.sector.split('-').map(Number);
    if (phase === 'moving' && (wh > 0 || bh > 0)) return false;
    if (phase === 'placement' && wh === 0 && bh === 0) return false;
    return !text || s.sector.includes(text);
  });
  const sign = statsView.descending ? -1 : 1;
  const compare = (x, y) => {
    const a = statsKey(x, statsView.sort);
    const b = statsKey(y, statsView.sort);
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return sign * (a[i] - b[i]);
    return 0;
  };
  return rows.sort(compare);
}

// The selected sectors as CSV: a header, then a row per sector, every count of `stats --json`.
function statsCsv() {
  const lines = [CSV_COLUMNS.join(',')];
  for (const s of statsRows()) lines.push(CSV_COLUMNS.map((c) => s[c]).join(','));
  return `${lines.join('\n')}\n`;
}

async function renderStats() {
  const game = state.game;
  $('stats-game').textContent = $('game').selectedOptions[0]?.textContent || game.variant.name;
  $('stats-chart').replaceChildren();
  $('stats-table').replaceChildren();
  $('stats-shown').textContent = '';
  $('depths').hidden = true;
  depthsView.data = null;
  $('stats-summary').textContent = 'Loading…';
  statsView.stats = null;
  let stats;
  try {
    stats = await api('stats', gameParams(game));
  } catch (e) {
    $('stats-summary').textContent = e.message;
    return;
  }
  if (state.game !== game) return;
  statsView.stats = stats;
  statsView.game = game;
  const total = stats.sectors.reduce((t, s) => t + s.positions, 0);
  const deepest = stats.sectors.reduce((t, s) => Math.max(t, s.max_depth), 0);
  const start = stats.start === null ? 'not solved'
    : stats.start.value === 'draw' ? 'a draw'
      : `${stats.start.value === 'win' ? 'White' : 'Black'} wins in ${plies(stats.start.depth)}`;
  $('stats-summary').textContent = `${stats.sectors.length} sectors solved, ${total.toLocaleString('en')} positions; `
    + `the deepest value is ${plies(deepest)}; the start position is ${start}.`;
  renderStatsRows();
}

// The chart and the table of the selected sectors.
function renderStatsRows() {
  const chart = $('stats-chart');
  const table = $('stats-table');
  chart.replaceChildren();
  table.replaceChildren();
  if (!statsView.stats) return;
  const rows = statsRows();
  const charted = rows.slice(0, CHART_ROWS);
  $('stats-shown').textContent = rows.length === 0 ? 'No sector matches.'
    : `${rows.length} of ${statsView.stats.sectors.length} sectors`
      + (rows.length > CHART_ROWS ? `; the chart shows the first ${CHART_ROWS}, the table all.` : '.');
  $('stats-order').setAttribute('aria-pressed', String(statsView.descending));
  $('stats-sort').value = statsView.sort;

  // One stacked bar per sector: win, draw and loss shares.
  // As wide in units as on screen, so that its 12px text stays 12px on a phone.
  const rowH = 18;
  const labelW = 86;
  const shown = Math.round(chart.getBoundingClientRect().width) || 716;
  const barW = Math.max(120, shown - labelW - 70);
  const width = labelW + barW + 70;
  chart.toggleAttribute('hidden', charted.length === 0);
  chart.setAttribute('viewBox', `0 0 ${width} ${charted.length * rowH + 20}`);
  charted.forEach((s, i) => {
    const y = 10 + i * rowH;
    chart.append(svg('text', { x: 0, y: y + 12 }, s.sector));
    let x = labelW;
    for (const kind of ['win', 'draw', 'loss']) {
      const w = s.positions ? (s[kind] / s.positions) * barW : 0;
      if (w > 0) {
        const r = svg('rect', { class: `bar-${kind}`, x, y: y + 2, width: w, height: rowH - 4 });
        r.append(svg('title', {}, `${s.sector}: ${s[kind].toLocaleString('en')} ${kind}`));
        chart.append(r);
      }
      x += w;
    }
    chart.append(svg('text', { x: labelW + barW + 6, y: y + 12 }, `≤${s.max_depth}`));
  });

  // The table: every selected sector; a click on a column's name sorts by it (again: the
  // other way round).
  const head = el('tr');
  const names = { sector: 'sector', positions: 'positions', win: 'win', draw: 'draw', loss: 'loss', max_depth: 'max depth' };
  for (const c of STATS_COLUMNS) {
    const th = el('th', {
      'aria-sort': statsView.sort === c ? (statsView.descending ? 'descending' : 'ascending') : null,
    });
    const b = el('button', { type: 'button', class: 'sort', 'data-sort': c }, names[c]);
    b.addEventListener('click', () => {
      statsView.descending = statsView.sort === c ? !statsView.descending : c !== 'sector';
      statsView.sort = c;
      renderStatsRows();
    });
    th.append(b);
    head.append(th);
  }
  table.append(head);
  for (const s of rows) {
    const row = el('tr', { 'data-sector': s.sector });
    for (const c of STATS_COLUMNS) {
      const v = s[c];
      if (c === 'sector') {
        // The sector's name opens its depth histogram.
        const b = el('button', { type: 'button', class: 'depths-open', title: `The depths of ${v}` }, v);
        b.addEventListener('click', () => showDepths(v));
        const cell = el('td');
        cell.append(b);
        row.append(cell);
        continue;
      }
      row.append(el('td', {}, typeof v === 'number' ? v.toLocaleString('en') : v));
    }
    table.append(row);
  }
}

// The depth histogram shown (`/api/depths`' answer), if any.
const depthsView = { data: null, game: null };

// Reads a sector's depth histogram (every slot: nine's largest sectors take seconds) and draws
// it: wins above the axis, losses below, one bar per depth.
async function showDepths(sector) {
  const game = state.game;
  depthsView.data = null;
  $('depths').hidden = false;
  $('depths-sector').textContent = sector;
  $('depths-summary').textContent = 'Counting every position of the sector…';
  $('depths-chart').replaceChildren();
  $('depths-csv').disabled = true;
  let data;
  try {
    data = await api('depths', { ...gameParams(game), sector });
  } catch (e) {
    $('depths-summary').textContent = e.message;
    return;
  }
  if (state.game !== game || $('depths-sector').textContent !== sector) return;
  depthsView.data = data;
  depthsView.game = game;
  $('depths-csv').disabled = false;
  const won = data.win.reduce((t, n) => t + n, 0);
  const lost = data.loss.reduce((t, n) => t + n, 0);
  const deepest = Math.max(data.win.length, data.loss.length) - 1;
  $('depths-summary').textContent = `${data.positions.toLocaleString('en')} positions: `
    + `${won.toLocaleString('en')} won, ${lost.toLocaleString('en')} lost, ${data.draw.toLocaleString('en')} drawn`
    + (deepest >= 0 ? `; the deepest ${plies(deepest)}.` : '.');
  drawDepths(data);
  $('depths').scrollIntoView({ block: 'nearest' });
}

function drawDepths(data) {
  const chart = $('depths-chart');
  const n = Math.max(data.win.length, data.loss.length, 1);
  const shown = Math.round(chart.getBoundingClientRect().width) || 716;
  const width = Math.max(shown, 200);
  const half = 90;
  const left = 6;
  const barW = (width - 2 * left) / n;
  const top = Math.max(1, ...data.win, ...data.loss);
  chart.setAttribute('viewBox', `0 0 ${width} ${2 * half + 30}`);
  chart.append(svg('line', { class: 'axis', x1: 0, y1: half + 10, x2: width, y2: half + 10 }));
  for (const [kind, counts, sign] of [['win', data.win, -1], ['loss', data.loss, 1]]) {
    counts.forEach((count, d) => {
      if (count === 0) return;
      const h = Math.max(1, (count / top) * half);
      const r = svg('rect', {
        class: `bar-${kind}`, x: left + d * barW, y: sign < 0 ? half + 10 - h : half + 10,
        width: Math.max(1, barW - 1), height: h, 'data-depth': d,
      });
      r.append(svg('title', {}, `${kind} in ${plies(d)}: ${count.toLocaleString('en')}`));
      chart.append(r);
    });
  }
  chart.append(svg('text', { x: left, y: 2 * half + 26 }, '0'));
  chart.append(svg('text', { x: width - left, y: 2 * half + 26, 'text-anchor': 'end' }, plies(n - 1)));
}

// The histogram as CSV, as `scripts/depths.py` writes a whole game's (tab-separated there):
// `depth,value,positions`, wins and losses by depth, then the draws.
function depthsCsv() {
  const d = depthsView.data;
  if (!d) return '';
  const lines = ['depth,value,positions'];
  const deepest = Math.max(d.win.length, d.loss.length);
  for (let i = 0; i < deepest; i++) {
    for (const kind of ['win', 'loss']) if (d[kind][i]) lines.push(`${i},${kind},${d[kind][i]}`);
  }
  lines.push(`-,draw,${d.draw}`);
  return `${lines.join('\n')}\n`;
}

// Saves `text` as a CSV file named after the game and `what`.
function downloadCsv(text, game, what) {
  const blob = new Blob([text], { type: 'text/csv' });
  const a = el('a', { href: URL.createObjectURL(blob), download: `${label(game).replace(/[^A-Za-z0-9.-]+/g, '-')}-${what}.csv` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// Saves the selected sectors as a CSV file.
function downloadStatsCsv() {
  if (statsView.stats) downloadCsv(statsCsv(), statsView.game, 'sectors');
}

function listenStats() {
  $('stats-filter').addEventListener('input', renderStatsRows);
  $('stats-phase').addEventListener('change', renderStatsRows);
  $('stats-sort').addEventListener('change', (e) => {
    statsView.sort = e.target.value;
    renderStatsRows();
  });
  $('stats-order').addEventListener('click', () => {
    statsView.descending = !statsView.descending;
    renderStatsRows();
  });
  $('stats-csv').addEventListener('click', downloadStatsCsv);
  $('depths-csv').addEventListener('click', () => {
    if (depthsView.data) downloadCsv(depthsCsv(), depthsView.game, `depths-${depthsView.data.sector}`);
  });
  $('depths-close').addEventListener('click', () => {
    $('depths').hidden = true;
    depthsView.data = null;
  });
}

// ---------------------------------------------------------------- wiring

function setTab(tab) {
  state.tab = tab;
  if (state.game && state.line.length > 0 && state.data) updateHash();
  for (const b of document.querySelectorAll('.tab')) {
    b.setAttribute('aria-selected', String(b.dataset.tab === tab));
  }
  $('view-board').hidden = tab === 'stats';
  $('view-stats').hidden = tab !== 'stats';
  $('analysis').hidden = tab === 'edit';
  $('edit-panel').hidden = tab !== 'edit';
  if (tab === 'stats') {
    renderStats();
    return;
  }
  if (tab === 'edit') {
    state.pending = null;
    state.selected = null;
    $('play-panel').hidden = true;
    $('unsolved').hidden = true;
    if (state.game) editOpen();
    return;
  }
  state.engineNote = '';
  if (state.data) {
    render();
    engineTurn();
  }
}

function label(game) {
  const v = game.variant;
  const r = game.ruleSet;
  let text = v.name;
  if (!r.default) {
    const base = v.rule_sets.find((x) => x.default);
    const changed = SWITCHES.filter((s) => !base || base.rules[s] !== r.rules[s]);
    text += ` (${changed.map((s) => `${s} ${r.rules[s]}`).join(', ') || r.id})`;
  }
  if (r.start === null) text += ` · ${r.sectors_solved} of ${r.sectors_total} sectors`;
  return text;
}

// The Play panel's controls: the side, the N-move rule, a new game, Explore from here.
function listenPlay() {
  for (const b of document.querySelectorAll('.side')) {
    b.addEventListener('click', () => {
      state.human = b.dataset.side;
      state.engineNote = '';
      renderPlayPanel();
      if (state.data) { updateHash(); render(); engineTurn(); }
    });
  }
  state.nMove = nMoveOf(localStorage.getItem('morris.nMove')) || N_MOVE_DEFAULT;
  $('n-move').value = String(state.nMove);
  $('n-move').addEventListener('change', (e) => {
    const n = Math.round(Number(e.target.value));
    state.nMove = n >= 1 && n <= 1000 ? n : N_MOVE_DEFAULT;
    e.target.value = String(state.nMove);
    localStorage.setItem('morris.nMove', String(state.nMove));
    if (state.data) { state.engineNote = ''; updateHash(); render(); engineTurn(); }
  });
  $('new-game').addEventListener('click', () => {
    state.engineNote = '';
    state.addressError = '';
    startLine(state.game, state.game.variant.start_position);
    show();
  });
  $('explore-here').addEventListener('click', () => setTab('explore'));
  setStrength(localStorage.getItem('morris.strength'));
  $('strength').addEventListener('change', (e) => {
    setStrength(e.target.value);
    localStorage.setItem('morris.strength', state.strength);
    renderPlayPanel();
    if (state.data) updateHash();
  });
  $('practice').addEventListener('toggle', () => { if ($('practice').open) fillPractice(); });
  $('practice-sector').addEventListener('change', practiceGoals);
  $('review').addEventListener('change', (e) => {
    state.review = e.target.checked;
    state.engineNote = '';
    if (state.data) { render(); engineTurn(); }
  });
  $('hint').addEventListener('click', () => {
    const d = state.data;
    if (!d || d.moves.length === 0 || d.value === null) return;
    // The list comes best first: the first is a best move.
    state.hint = d.moves[0];
    state.engineNote = `Hint: ${d.moves[0].move} is a best move.`;
    renderPlayPanel();
    renderBoard();
  });
  $('practice-start').addEventListener('click', startPractice);
  $('course-next').addEventListener('click', () => {
    const lessons = courseLessons();
    const next = state.course && lessons[lessons.indexOf(state.course.lesson) + 1];
    if (next) startLesson(next);
  });
}

// Copies `text`, and says so on `button` (whose label is `label`) for a moment; where the
// clipboard is refused, `refused()` offers another way and names it.
async function copy(button, label, text, refused) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = 'Copied';
  } catch (e) {
    button.textContent = refused();
  }
  setTimeout(() => { button.textContent = label; }, 1500);
}

// The longest best line `bestPlay` adds.
const MAX_BEST = 400;

// Adds the perfect line from the shown position to the game (a variation where the game goes
// on otherwise) and shows its first move, so that the arrow keys step through it: each move the
// first the database lists (the fastest win, the slowest loss, else a draw), until the game
// ends, a position of the line comes again (a drawn line goes round for ever), a position is not
// solved, or MAX_BEST plies.
async function bestPlay() {
  const id = ++state.request;
  const start = state.line[state.at];
  const seen = new Set([start.position]);
  let here = start;
  let ended = `it reaches ${MAX_BEST} plies`;
  $('best-play').disabled = true;
  try {
    for (let i = 0; i < MAX_BEST; i++) {
      const data = await api('explore', { ...gameParams(), position: here.position });
      if (id !== state.request) return;
      remember(here, data);
      if (data.moves.length === 0) {
        ended = 'the game is over';
        break;
      }
      if (data.value === null) {
        ended = 'a position is not solved here';
        break;
      }
      const best = data.moves[0];
      here = grow(here, best.move, best.position);
      if (seen.has(here.position)) {
        ended = 'a position of the line comes again: a draw';
        break;
      }
      seen.add(here.position);
    }
  } catch (e) {
    if (id === state.request) showError(`Best play stopped: ${e.message}`);
  } finally {
    $('best-play').disabled = false;
  }
  if (id !== state.request || here === start) return;
  const note = $('best-note');
  note.textContent = `Best play from the shown position: ${plies(here.ply - start.ply)}, until ${ended}.`;
  note.hidden = false;
  note.dataset.end = here.position;
  state.addressError = '';
  state.line = lineThrough(here);
  state.at = start.ply + 1;
  show();
}

// The game's controls: variations promoted and deleted, best play, the game as text.
function listenGame() {
  $('best-play').addEventListener('click', bestPlay);
  $('promote').addEventListener('click', () => {
    if (promote(state.line[state.at])) { updateHash(); renderLine(); }
  });
  $('cut').addEventListener('click', () => {
    const parent = cut(state.line[state.at]);
    if (parent) visit(parent);
  });
  $('export').addEventListener('click', exportGame);
  $('game-text').addEventListener('toggle', () => {
    if ($('game-text').open && !$('game-text-input').value.trim() && state.root) exportGame();
  });
  $('import').addEventListener('click', () => importGame($('game-text-input').value));
  $('copy-game').addEventListener('click', () => {
    if (!$('game-text-input').value.trim()) exportGame();
    copy($('copy-game'), 'Copy', $('game-text-input').value, () => {
      $('game-text-input').select();
      return 'Selected: copy it';
    });
  });
}

// The page's controls.
function listen() {
  state.hideEval = localStorage.getItem('morris.hideEval') === 'true';
  $('hide-eval').checked = state.hideEval;
  $('hide-eval').addEventListener('change', (e) => {
    state.hideEval = e.target.checked;
    localStorage.setItem('morris.hideEval', String(state.hideEval));
    // The set-up check names the value too: ask it again in the new manner.
    if (state.tab === 'edit') editCheck();
    if (state.data) render();
  });
  for (const b of document.querySelectorAll('.tab')) b.addEventListener('click', () => setTab(b.dataset.tab));
  listenPlay();
  listenGame();
  listenEditor();
  listenStats();
  $('flip').addEventListener('click', () => {
    state.flipped = !state.flipped;
    $('flip').setAttribute('aria-pressed', String(state.flipped));
    if (state.game) renderBoard();
  });
  $('first').addEventListener('click', () => go(0));
  $('undo').addEventListener('click', undo);
  $('redo').addEventListener('click', () => go(state.at + 1));
  $('last').addEventListener('click', () => go(state.line.length - 1));
  $('start').addEventListener('click', () => {
    state.addressError = '';
    startLine(state.game, state.game.variant.start_position);
    show();
  });
  $('goto').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = $('position-input').value.trim();
    if (text) openPosition(text);
  });
  $('copy-link').addEventListener('click', () => copy($('copy-link'), 'Copy link', location.href, () => 'See the address bar'));
  $('game').addEventListener('change', (e) => {
    state.addressError = '';
    const game = state.games[Number(e.target.value)];
    startLine(game, game.variant.start_position);
    if (state.tab === 'stats') renderStats();
    show();
  });
  document.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.target instanceof HTMLTextAreaElement || state.tab === 'edit') return;
    if (e.key === 'ArrowLeft') undo();
    else if (e.key === 'ArrowRight') go(state.at + 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(state.line.length - 1);
    else if (e.key === 'Escape') { state.selected = null; state.pending = null; renderBoard(); }
  });
  window.addEventListener('hashchange', () => {
    if (state.games.length === 0 || (state.line.length > 0 && location.hash === encodeHash())) return;
    const line = fromHash();
    startLine(line.game, line.position);
    tabFromHash();
    openLine(line);
  });
}

async function init() {
  listen();
  let variants;
  try {
    variants = await api('variants', {});
  } catch (e) {
    showError(`Cannot list the databases: ${e.message}`);
    return;
  }
  SWITCHES = variants.switches.map((s) => s.name);
  for (const v of variants.variants) {
    for (const r of v.rule_sets) state.games.push({ variant: v, ruleSet: r });
  }
  if (state.games.length === 0) {
    showError('This folder holds no solved databases yet. Run `morris solve --variant six --db DIR` '
      + '(about a second), then reload this page.');
    document.body.dataset.ready = 'empty';
    return;
  }
  const select = $('game');
  state.games.forEach((g, i) => select.append(el('option', { value: String(i) }, label(g))));
  setTab('explore');
  const line = fromHash();
  startLine(line.game, line.position);
  tabFromHash();
  openLine(line);
}

// The tab (and Play's side, strength and N-move rule) an address names: `tab=play&side=b`,
// `tab=stats`, `nmove=50`.
function tabFromHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  const n = nMoveOf(p.get('nmove'));
  if (n !== null) setNMove(n);
  const tab = ['explore', 'play', 'edit', 'stats'].includes(p.get('tab')) ? p.get('tab') : 'explore';
  if (p.get('side') === 'w' || p.get('side') === 'b') state.human = p.get('side');
  if (STRENGTHS.includes(p.get('strength'))) setStrength(p.get('strength'));
  if (tab !== state.tab) setTab(tab);
}

function undo() {
  // Against the database, step back to the user's own turn.
  if (state.tab === 'play' && state.data && state.at >= 2 && state.data.turn === state.human) {
    go(state.at - 2);
  } else {
    go(state.at - 1);
  }
}

init();
