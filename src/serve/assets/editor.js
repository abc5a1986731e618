// The board editor of the explorer: pieces placed and removed by clicks, the hands and the side
// to move set, and the position checked by the server as it is built, so that a position no
// game can reach is named with the reason `query` gives. Uses app.js's state and drawing.
'use strict';

// Starts editing from the shown position.
function editOpen() {
  const d = state.data;
  const position = d ? d.position : state.line[state.at].position;
  const [, turn, whiteHand, blackHand] = position.split(' ');
  state.edit = {
    on: pieces(position, state.game.variant.board),
    hands: { w: Number(whiteHand) || 0, b: Number(blackHand) || 0 },
    turn: turn === 'b' ? 'b' : 'w',
    tool: state.edit ? state.edit.tool : 'w',
    check: null, // {ok, text, position} once the server has answered
    request: 0,
  };
  editCheck();
}

// The position being built, in the notation (ranks from the top, then side and hands).
function editPosition() {
  const board = state.game.variant.board;
  const e = state.edit;
  const rows = board.ranks.map((rank) => rank.map((p) => (e.on[p] === 'w' ? 'W' : e.on[p] === 'b' ? 'B' : '.')).join(''));
  return `${rows.join('/')} ${e.turn} ${e.hands.w} ${e.hands.b}`;
}

// A click puts the chosen piece on the point, or empties it when that piece is there already.
function editClick(name) {
  const e = state.edit;
  if (e.tool === 'empty' || e.on[name] === e.tool) delete e.on[name];
  else e.on[name] = e.tool;
  editCheck();
}

// Asks the server about the position built: its value, or why no game reaches it.
async function editCheck() {
  const e = state.edit;
  const position = editPosition();
  const id = ++e.request;
  e.check = null;
  renderBoard();
  renderEditor();
  let check;
  try {
    const d = await api('explore', { ...gameParams(), position });
    // With the evaluation hidden, the check says only that a game reaches the position.
    const value = state.hideEval ? '' : `: ${d.value === null ? 'not solved here' : verdictWords(d).text}`;
    check = { ok: true, position: d.position, text: `A position of a game${value}.` };
  } catch (err) {
    check = { ok: false, position, text: `Not a position of a game: ${err.message}` };
  }
  if (id !== e.request || state.tab !== 'edit') return;
  e.check = check;
  renderEditor();
}

// The editor's panel: the tool, the hands, the side to move, the check.
function renderEditor() {
  const e = state.edit;
  $('edit-panel').hidden = state.tab !== 'edit';
  if (state.tab !== 'edit' || !e) return;
  for (const b of document.querySelectorAll('.tool')) {
    b.setAttribute('aria-pressed', String(b.dataset.tool === e.tool));
  }
  const count = (c) => Object.values(e.on).filter((x) => x === c).length;
  for (const c of ['w', 'b']) {
    $(`count-${c}`).textContent = `${e.hands[c]} in hand · ${count(c)} on board`;
    $(`player-${c}`).classList.toggle('to-move', e.turn === c);
    if (document.activeElement !== $(`edit-hand-${c}`)) $(`edit-hand-${c}`).value = String(e.hands[c]);
  }
  $('edit-hand-w').max = $('edit-hand-b').max = String(state.game.variant.pieces);
  $('edit-turn').value = e.turn;
  $('turn').textContent = `Setting up a position · ${COLOR[e.turn]} to move`;
  const verdict = $('verdict');
  verdict.replaceChildren(e.check ? (e.check.ok ? 'Ready to explore' : 'Not a position of a game') : 'Checking…');
  verdict.dataset.value = '';
  $('edit-check').textContent = e.check ? e.check.text : '';
  $('edit-check').dataset.ok = e.check ? String(e.check.ok) : '';
  $('edit-position').textContent = editPosition();
  $('edit-done').disabled = !(e.check && e.check.ok);
}

// The editor's controls.
function listenEditor() {
  for (const b of document.querySelectorAll('.tool')) {
    b.addEventListener('click', () => { state.edit.tool = b.dataset.tool; renderEditor(); });
  }
  for (const c of ['w', 'b']) {
    $(`edit-hand-${c}`).addEventListener('change', (ev) => {
      const n = Math.round(Number(ev.target.value));
      state.edit.hands[c] = n >= 0 && n <= state.game.variant.pieces ? n : state.edit.hands[c];
      editCheck();
    });
  }
  $('edit-turn').addEventListener('change', (ev) => { state.edit.turn = ev.target.value; editCheck(); });
  $('edit-clear').addEventListener('click', () => { state.edit.on = {}; editCheck(); });
  $('edit-start').addEventListener('click', () => {
    const n = state.game.variant.pieces;
    Object.assign(state.edit, { on: {}, hands: { w: n, b: n }, turn: 'w' });
    editCheck();
  });
  $('edit-done').addEventListener('click', () => {
    const e = state.edit;
    if (!e.check || !e.check.ok) return;
    state.addressError = '';
    startLine(state.game, e.check.position);
    setTab('explore');
    show();
  });
}
