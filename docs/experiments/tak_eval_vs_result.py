#!/usr/bin/env python3
"""How well each Tak evaluation predicts the games actually played: every fourth position (from
ply 6) of the 6x6 komi-2 games in the PTN files given, searched with `go depth 1` by the linear
model, by the value network (UseNnue) and by their even blend (NnueWeight 50), scored against the game's result for the side to
move: log-loss of sigmoid(score / 200) and how often the score's sign agrees, by game phase.

    docs/experiments/tak_eval_vs_result.py [--tak build/bin/tak] [--option Name=Value]... games.ptn...

--option sets an engine option for every model (NnueFile=gen2.nnue: another network). Issue 27."""
import math, re, subprocess, sys
args = sys.argv[1:]
tak = 'build/bin/tak'
options = []
while len(args) >= 2 and args[0] in ('--tak', '--option'):
    if args[0] == '--tak':
        tak = args[1]
    else:
        options.append(args[1].split('=', 1))
    args = args[2:]
files = args
games = []
for f in files:
    txt = open(f).read()
    for g in txt.split('[Player1')[1:]:
        result = re.search(r'\[Result "([^"]+)"\]', g).group(1)
        body = re.sub(r'\{[^}]*\}', '', g[g.index('\n1.'):])
        plies = []
        for line in body.strip().splitlines():
            w = line.split()
            if w and w[0].endswith('.'): plies += w[1:]
        plies = [p for p in plies if p not in ('0-F','F-0','R-0','0-R','1-0','0-1','1/2-1/2')]
        white = 1.0 if result.startswith(('R-','F-','1-')) else 0.0 if result.startswith('0-') else 0.5
        games.append((plies, white))

def run(nnue, weight):
    p = subprocess.Popen([tak], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
    def send(l): p.stdin.write(l + '\n'); p.stdin.flush()
    send('setoption name HalfKomi value 4'); send(f'setoption name UseNnue value {"true" if nnue else "false"}')
    send(f'setoption name NnueWeight value {weight}'); send('setoption name TinueDepth value 0')
    for name, value in options:
        send(f'setoption name {name} value {value}')
    out = []
    for plies, white in games:
        send('teinewgame 6')
        for k in range(6, len(plies) - 1, 4):
            send('position startpos moves ' + ' '.join(plies[:k])); send('go depth 1')
            score = None
            while True:
                line = p.stdout.readline()
                m = re.search(r'score cp (-?\d+)', line)
                if m: score = int(m.group(1))
                if re.search(r'score mate', line): score = None
                if line.startswith('bestmove'): break
            if score is None: continue
            mover_white = (k % 2 == 0)
            target = white if mover_white else 1 - white
            out.append((k, score, target))
    send('quit'); p.wait()
    return out

for name, nnue, weight in (('linear ', False, 100), ('network', True, 100), ('blend  ', True, 50)):
    data = run(nnue, weight)
    for lo, hi in ((6, 30), (30, 50), (50, 70), (70, 400)):
        sel = [(s, t) for k, s, t in data if lo <= k < hi]
        if not sel: continue
        loss = -sum(t * math.log(1 / (1 + math.exp(-s / 200))) + (1 - t) * math.log(1 - 1 / (1 + math.exp(-s / 200))) for s, t in sel) / len(sel)
        agree = sum(1 for s, t in sel if (s > 0 and t == 1) or (s < 0 and t == 0)) / len(sel)
        print(f"{name} plies {lo:3d}-{hi:3d}: {len(sel):4d} positions, loss {loss:.4f}, sign agrees {agree:.3f}")
