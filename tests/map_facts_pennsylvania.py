"""Ticket to Ride: Pennsylvania's facts, written into the tests to lock its map file.

Transcribed from the reference tables of the printed game (Board Game Arena's
data, checked against a second table and the board art), not read from
``maps/pennsylvania.toml``: a change to the map file must be matched here by
hand. Same line formats as :mod:`tests.map_facts` — routes
``id|a|b|colour|length|pair|toll`` (the toll column stays empty), tickets
``id|a|b|points|neutral`` (the neutral column stays empty) — read with its
helpers ``map_facts.routes`` and ``map_facts.tickets``.

Route and ticket ids are the reference tables' numbers minus one. Ontario is a
region of two ferry landings not joined to each other: "Ontario 1" (west, the
Erie ferries) and "Ontario 2" (east, the Buffalo ferries); tickets name the
region "Ontario".
"""

from __future__ import annotations

#: The 34 cities (Ontario's two landings are in REGIONS).
CITIES = (
    *("Albany", "Allentown", "Altoona", "Atlantic City", "Baltimore", "Binghamton"),
    *("Buffalo", "Chambersburg", "Coudersport", "Cumberland", "Dubois", "Elmira", "Erie"),
    *("Gettysburg", "Harrisburg", "Johnstown", "Lancaster", "Lewiston", "Morgantown"),
    *("New York", "Oil City", "Philadelphia", "Pittsburgh", "Reading", "Rochester"),
    *("Scranton / Wilkes Barre", "Stroudsburg", "Syracuse", "Towanda", "Warren"),
    *("Wheeling", "Williamsport", "York", "Youngstown"),
)
#: The regions a ticket end may name -> their locations.
REGIONS = {"Ontario": ("Ontario 1", "Ontario 2")}
#: Where each location is printed: fractions of the board image's width and
#: height (1744 x 1125 px) from its top-left corner.
POSITIONS = {
    "Albany": (0.9725, 0.0916),
    "Allentown": (0.7838, 0.6631),
    "Altoona": (0.3607, 0.6827),
    "Atlantic City": (0.9673, 0.8916),
    "Baltimore": (0.6783, 0.9662),
    "Binghamton": (0.7385, 0.2258),
    "Buffalo": (0.3194, 0.0462),
    "Chambersburg": (0.4656, 0.8622),
    "Coudersport": (0.4226, 0.3156),
    "Cumberland": (0.3647, 0.9636),
    "Dubois": (0.3091, 0.5262),
    "Elmira": (0.5826, 0.2276),
    "Erie": (0.1187, 0.2258),
    "Gettysburg": (0.5373, 0.8987),
    "Harrisburg": (0.5808, 0.7502),
    "Johnstown": (0.3039, 0.7476),
    "Lancaster": (0.6714, 0.8276),
    "Lewiston": (0.4839, 0.6658),
    "Morgantown": (0.1388, 0.9698),
    "New York": (0.9731, 0.4969),
    "Oil City": (0.1726, 0.4347),
    "Ontario 1": (0.051, 0.0427),
    "Ontario 2": (0.2334, 0.0427),
    "Philadelphia": (0.8521, 0.8667),
    "Pittsburgh": (0.125, 0.7182),
    "Reading": (0.6909, 0.7262),
    "Rochester": (0.5367, 0.0462),
    "Scranton / Wilkes Barre": (0.7655, 0.4391),
    "Stroudsburg": (0.8572, 0.5547),
    "Syracuse": (0.7179, 0.0462),
    "Towanda": (0.6468, 0.3351),
    "Warren": (0.2494, 0.3129),
    "Wheeling": (0.0373, 0.8213),
    "Williamsport": (0.5591, 0.4889),
    "York": (0.6101, 0.856),
    "Youngstown": (0.0298, 0.4862),
}
#: The board's width ÷ height (1744 / 1125, rounded).
ASPECT = 1.55
#: Other spellings a user may type -> the printed name.
ALIASES = {
    "Pittsburg": "Pittsburgh",
    "Scranton": "Scranton / Wilkes Barre",
    "Wilkes-Barre": "Scranton / Wilkes Barre",
    "Scranton/Wilkes-Barre": "Scranton / Wilkes Barre",
    "Lewistown": "Lewiston",
    "Ontario West": "Ontario 1",
    "Ontario East": "Ontario 2",
}

ROUTES = """
0|Albany|Binghamton|purple|6||
1|Albany|New York|blue|6|1|
2|Albany|New York|green|6|1|
3|Albany|Syracuse|white|6|2|
4|Albany|Syracuse|red|6|2|
5|Allentown|Philadelphia|black|3|3|
6|Allentown|Philadelphia|red|3|3|
7|Allentown|Reading|green|2||
8|Allentown|Scranton / Wilkes Barre|white|3|4|
9|Allentown|Scranton / Wilkes Barre|blue|3|4|
10|Allentown|Stroudsburg|orange|2||
11|Altoona|Dubois|gray|2||
12|Altoona|Harrisburg|red|5|5|
13|Altoona|Harrisburg|orange|5|5|
14|Altoona|Johnstown|yellow|1|6|
15|Altoona|Johnstown|blue|1|6|
16|Altoona|Lewiston|green|2||
17|Atlantic City|New York|black|6|7|
18|Atlantic City|New York|white|6|7|
19|Atlantic City|Philadelphia|gray|2|8|
20|Atlantic City|Philadelphia|gray|2|8|
21|Baltimore|Cumberland|blue|7||
22|Baltimore|Gettysburg|red|3||
23|Baltimore|Philadelphia|yellow|4|9|
24|Baltimore|Philadelphia|purple|4|9|
25|Baltimore|York|white|2||
26|Binghamton|Elmira|white|3||
27|Binghamton|Scranton / Wilkes Barre|black|3|10|
28|Binghamton|Scranton / Wilkes Barre|green|3|10|
29|Binghamton|Syracuse|yellow|2|11|
30|Binghamton|Syracuse|orange|2|11|
31|Binghamton|Towanda|red|2||
32|Buffalo|Coudersport|gray|4||
33|Buffalo|Erie|orange|5|12|
34|Buffalo|Erie|white|5|12|
35|Buffalo|Rochester|yellow|5|13|
36|Buffalo|Rochester|black|5|13|
37|Buffalo|Warren|green|4||
38|Buffalo|Ontario 2|gray|1|14|
39|Buffalo|Ontario 2|gray|1|14|
40|Chambersburg|Cumberland|green|2||
41|Chambersburg|Gettysburg|black|1||
42|Chambersburg|Harrisburg|blue|2||
43|Coudersport|Elmira|orange|4||
44|Coudersport|Warren|gray|4||
45|Coudersport|Williamsport|green|4||
46|Cumberland|Johnstown|gray|3||
47|Cumberland|Morgantown|red|5||
48|Dubois|Oil City|purple|3||
49|Dubois|Warren|black|3||
50|Dubois|Williamsport|white|6||
51|Elmira|Rochester|green|3||
52|Elmira|Syracuse|black|4||
53|Elmira|Towanda|yellow|2||
54|Erie|Oil City|black|3||
55|Erie|Warren|blue|3||
56|Erie|Youngstown|yellow|4|15|
57|Erie|Youngstown|green|4|15|
58|Erie|Ontario 1|gray|3|16|
59|Erie|Ontario 1|gray|3|16|
60|Gettysburg|Harrisburg|yellow|2||
61|Gettysburg|York|gray|1||
62|Harrisburg|Lewiston|gray|2||
63|Harrisburg|Reading|purple|2||
64|Harrisburg|Scranton / Wilkes Barre|gray|6||
65|Harrisburg|York|black|1||
66|Johnstown|Pittsburgh|purple|4|17|
67|Johnstown|Pittsburgh|black|4|17|
68|Lancaster|Philadelphia|green|4|18|
69|Lancaster|Philadelphia|orange|4|18|
70|Lancaster|Reading|yellow|1||
71|Lancaster|York|purple|1||
72|Lewiston|Williamsport|yellow|3||
73|Morgantown|Pittsburgh|yellow|3||
74|Morgantown|Wheeling|blue|3||
75|New York|Scranton / Wilkes Barre|red|5|19|
76|New York|Scranton / Wilkes Barre|purple|5|19|
77|Oil City|Pittsburgh|red|4||
78|Oil City|Warren|orange|2||
79|Oil City|Youngstown|white|3||
80|New York|Philadelphia|gray|6|20|
81|New York|Philadelphia|gray|6|20|
82|Pittsburgh|Wheeling|green|2|21|
83|Pittsburgh|Wheeling|white|2|21|
84|Pittsburgh|Youngstown|orange|4|22|
85|Pittsburgh|Youngstown|blue|4|22|
86|Harrisburg|Lancaster|gray|2|23|
87|Harrisburg|Lancaster|gray|2|23|
88|Rochester|Syracuse|purple|4|24|
89|Rochester|Syracuse|blue|4|24|
90|Scranton / Wilkes Barre|Stroudsburg|yellow|2||
91|Scranton / Wilkes Barre|Towanda|gray|3||
92|Scranton / Wilkes Barre|Williamsport|orange|5||
93|Towanda|Williamsport|black|2||
94|Wheeling|Youngstown|purple|5||
"""
#: ``id|companies``: the company logos each route shows, biggest company first
#: (empty on the 8 routes without a logo).
ROUTE_COMPANIES = """
0|
1|PRR,B&O,NYC
2|PRR,B&O,NYC
3|NYC
4|NYC
5|PRR,RDG
6|PRR,RDG
7|RDG
8|PRR,RDG,LV,JCL
9|PRR,RDG,LV,JCL
10|RDG,LV,JCL
11|PRR
12|PRR
13|PRR
14|PRR
15|PRR
16|
17|JCL
18|JCL
19|PRR,RDG,JCL
20|PRR,RDG,JCL
21|B&O,WM
22|PRR,WM
23|PRR,B&O
24|PRR,B&O
25|PRR
26|EL
27|EL
28|EL
29|EL
30|EL
31|EL
32|PRR,EL
33|EL,NYC
34|EL,NYC
35|B&O,EL,LV,NYC,BR&P
36|B&O,EL,LV,NYC,BR&P
37|PRR,B&O,EL,BR&P
38|PRR,EL,NYC
39|PRR,EL,NYC
40|PRR,WM
41|
42|PRR,RDG,WM
43|PRR,B&O,EL,NYC,BR&P
44|PRR,B&O,EL,NYC,BR&P
45|PRR
46|PRR,B&O,WM
47|B&O,WM
48|
49|EL,BR&P
50|
51|PRR,B&O,EL,BR&P
52|EL,LV
53|PRR,EL,LV
54|PRR,EL,NYC
55|PRR,EL,NYC
56|EL,NYC
57|EL,NYC
58|PRR,EL,NYC
59|PRR,EL,NYC
60|PRR,RDG
61|
62|PRR
63|RDG
64|PRR,RDG
65|PRR,WM
66|PRR,B&O
67|PRR,B&O
68|PRR
69|PRR
70|RDG
71|PRR
72|PRR,RDG
73|
74|B&O
75|EL,LV,JCL
76|EL,LV,JCL
77|PRR,B&O
78|PRR,B&O,EL
79|EL
80|PRR,B&O,RDG,JCL
81|PRR,B&O,RDG,JCL
82|PRR
83|PRR
84|PRR,B&O,NYC
85|PRR,B&O,NYC
86|PRR
87|PRR
88|LV,NYC
89|LV,NYC
90|RDG,LV,JCL
91|PRR,EL,LV
92|
93|EL,RDG
94|PRR,B&O,NYC
"""
#: Ferries: route id -> locomotive spaces (the four Ontario routes).
FERRY_LOCOMOTIVES = {38: 1, 39: 1, 58: 2, 59: 2}
TICKETS = """
0|Altoona|Binghamton|9|
1|Baltimore|Albany|16|
2|Baltimore|New York|10|
3|Baltimore|Philadelphia|4|
4|Buffalo|Baltimore|16|
5|Buffalo|Harrisburg|13|
6|Buffalo|Johnstown|10|
7|Buffalo|New York|18|
8|Buffalo|Philadelphia|19|
9|Chambersburg|Scranton / Wilkes Barre|8|
10|Coudersport|Binghamton|7|
11|Cumberland|Harrisburg|4|
12|Dubois|Cumberland|6|
13|Dubois|Stroudsburg|12|
14|Erie|Albany|20|
15|Erie|Altoona|8|
16|Gettysburg|Reading|3|
17|Harrisburg|Baltimore|3|
18|Harrisburg|New York|11|
19|Harrisburg|Philadelphia|6|
20|Johnstown|Elmira|10|
21|Lewiston|Syracuse|9|
22|Morgantown|Chambersburg|7|
23|Morgantown|Williamsport|13|
24|New York|Atlantic City|6|
25|Oil City|Johnstown|6|
26|Oil City|Scranton / Wilkes Barre|14|
27|Ontario|Pittsburgh|10|
28|Ontario|Syracuse|10|
29|Ontario|Warren|5|
30|Philadelphia|Atlantic City|2|
31|Philadelphia|New York|6|
32|Pittsburgh|Harrisburg|9|
33|Pittsburgh|Baltimore|13|
34|Pittsburgh|Buffalo|10|
35|Pittsburgh|New York|20|
36|Pittsburgh|Philadelphia|15|
37|Rochester|Elmira|3|
38|Rochester|Reading|13|
39|Scranton / Wilkes Barre|Allentown|3|
40|Syracuse|Allentown|8|
41|Towanda|Lancaster|9|
42|Warren|York|10|
43|Wheeling|Albany|22|
44|Wheeling|Allentown|15|
45|Wheeling|Erie|9|
46|Williamsport|Albany|10|
47|Youngstown|Morgantown|7|
48|Youngstown|Rochester|14|
49|Youngstown|Scranton / Wilkes Barre|17|
"""
#: The stock shares: (id, name, shares, points by place, 1st first).
COMPANIES = (
    ("PRR", "Pennsylvania Railroad", 15, (30, 21, 14, 9, 6)),
    ("B&O", "Baltimore & Ohio Railroad", 10, (20, 14, 9, 5, 2)),
    ("EL", "Erie Lackawanna Railway", 8, (16, 10, 5, 1)),
    ("RDG", "Reading Lines", 7, (15, 9, 5)),
    ("LV", "Lehigh Valley Railroad", 6, (12, 7, 3)),
    ("NYC", "New York Central System", 5, (10, 6, 3)),
    ("WM", "Western Maryland Railway", 4, (9, 5)),
    ("JCL", "Jersey Central Lines", 3, (8, 5)),
    ("BR&P", "Buffalo, Rochester & Pittsburgh Railway", 2, (7, 4)),
)
#: The Globetrotter's points (the most completed tickets).
GLOBETROTTER = 15
#: Points of a claimed route, by length (7 -> 18 unverified).
ROUTE_POINTS = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18}
#: Card colours, in the deck's order, 12 cards each, and 14 locomotives.
COLORS = ("purple", "blue", "orange", "white", "green", "yellow", "black", "red")
CARDS_PER_COLOR = 12
LOCOMOTIVES = 14
#: Players, trains, cards dealt, face-up cards, the final round's trigger.
PLAYERS = (2, 5)
TRAINS = 45
STARTING_HAND = 4
DISPLAY = 5
END_TRIGGER = 2
#: Tickets: dealt at the start and kept at least; drawn later and kept at
#: least; where the ones not kept go (under the deck).
START_TICKETS = (5, 3)
DRAW_TICKETS = (4, 1)
RETURNED = "bottom"
#: Both routes of a double pair are open from this many players on.
BOTH_PAIR_ROUTES_MIN_PLAYERS = 4


def route_companies(table: str) -> dict[int, tuple[str, ...]]:
    """``ROUTE_COMPANIES`` as ``{route id: company ids}`` (every route, ``()`` for none)."""
    rows: dict[int, tuple[str, ...]] = {}
    for line in table.strip().splitlines():
        ident, companies = line.split("|")
        rows[int(ident)] = tuple(companies.split(",")) if companies else ()
    return rows
