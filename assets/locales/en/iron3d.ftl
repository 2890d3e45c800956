# iron3d's own interface text, English (the fallback of every key).
# Keys are shared with ../ru/iron3d.ftl; the tests check that both files have the
# same keys and every key the code uses.

language-name = English

## Main menu

menu-subtitle = Parkan: Iron Strategy engine re-implementation
menu-data = Data: { $path } ({ $files } files)
menu-no-data = No game data: start with --data DIR (or set IRON3D_DATA)
menu-load-failed = Mission { $mission } failed during { $phase }
menu-dismiss = Dismiss
menu-missions = Missions
menu-no-missions = No missions under MISSIONS/.
menu-settings = Settings
menu-settings-back = Back to the missions
menu-load-game = Load game
menu-replays = Replays
menu-file-failed = The file could not be opened
menu-quit = Quit
menu-keys-hint = F12 inspector · F3 overlay · Esc pause · F5 quick save · F9 quick load · Settings → Keys and buttons for the controls
menu-campaign = Campaign { $number }
menu-continue = Continue campaign
menu-single = Single missions
menu-tutorial = Tutorials
menu-locked = Locked: complete the mission before it
menu-broken = Cannot load: { $error }
menu-difficulty = Difficulty:
menu-difficulty-easy = Easy
menu-difficulty-normal = Normal
menu-difficulty-hard = Hard

## Loading screen and its phases

loading-title = Loading { $mission }
loading-phase-count = { $phase }: { $done }/{ $total } ({ $ms } ms)
loading-phase = { $phase } ({ $ms } ms)
loading-tip = Tip
phase-Context = mission context
phase-Foundation = world foundation
phase-Description = mission description
phase-Prototypes = prototype resolution
phase-Resources = resource preparation
phase-Construction = instance construction
phase-Registration = registration
phase-ScenarioStart = scenario start

## Briefing

briefing-title = Briefing
briefing-start = Start
briefing-back = Back

## HUD

hud-from-system = from: System
hud-from-training = from: Training assistant
hud-from-information = from: Information assistant
# The original's string 6199, its spelling kept.
hud-message-repeated = Recieved message is already in history
hud-mission = mission
hud-ore = ore { $amount }
hud-ore-bar = Ore
hud-energy-bar = Energy
hud-power = power { $amount }
hud-units = { $count ->
    [one] { $count } unit
   *[other] { $count } units
}
hud-piloting = PILOTING · P to leave
hud-on-foot = ON FOOT · Enter: a warbot or a building's pod · ~ wingmen
hud-driving = DRIVING · P to get out · ~ wingmen
hud-telepresence = TELEPRESENCE · P or Esc to return
hud-command = COMMAND · Esc to return
hud-screen = FACTORY · Esc to return
hud-research = research:
hud-research-busy = research: busy
hud-node = node { $n }
hud-object = object { $id }
hud-lost = lost: { $what }
hud-destroyed = destroyed: enemy { $what }
hud-built = built: { $what }
hud-researched = researched: { $what }
hud-lode-found = mineral lode found ({ $what })
hud-constructed = building finished ({ $what })
hud-upgraded = building upgraded ({ $what })
hud-captured = { $what } is captured
hud-refused = refused: { $what }

## Orders and navigation states

order-holding = holding
order-move-to = moving to { $x }, { $y }
order-go-to = going to { $n }
order-follow-path = following path { $n }
order-patrol = patrolling path { $n }
order-attack = attacking { $n }
order-build = building
order-research = researching { $n }
order-piloted = piloted
order-released = released
order-haul = hauling ore
order-migrate = grazing
order-refit = refitting at a dock
order-search-lodes = searching for minerals
order-construct = building
order-upgrade = upgrading { $n }
order-capture = capturing { $n }
order-board = boarding { $n }
order-leave = leaving
order-stand-ground = standing by
order-shutdown = shut down
order-follow = following { $n }
order-search = searching
order-guard = patrolling
wingman-standby = Standby
wingman-follow = Follow me
wingman-search-capture = Search and capture
wingman-seek-destroy = Seek and destroy
wingman-attack = Attack
wingman-capture = Capture building
wingman-refit = Refit
commander-hero = Strategic control off
commander-battle-units = Battle units
commander-transports = Transports
commander-builders = Builders
commander-research = Research Center
commander-factory = Factory
commander-towers = Battle tower buildings
commander-bunkers = Bunker buildings
commander-other = Other buildings
commander-chat = Chat
commander-map = Satellite map
commander-game-menu = Game menu
hq-title = Orders
hq-guard = Guard
hq-search-minerals = Search minerals
hq-guard-pick = Right-click what to guard: a unit, a building or a place
hq-telepresence = Manual control:
hq-drive-a = A
hq-drive-a-tip = Drive it: movement, turret and guns yours
hq-drive-b = B
hq-drive-b-tip = Drive it at auto-driver 1: its orders move it, turret and guns yours
hq-drive-c = C
hq-drive-c-tip = Ride it at auto-driver 2: the AI moves and fights it
order-with-state = { $order } ({ $state })
nav-idle = idle
nav-moving = moving
nav-arrived = arrived
nav-blocked = blocked

## Production panel

build-title = Build at { $building }
build-robot = robot
site-title = Builder { $builder }: build
site-row = { $name } ({ $ore } ore)
site-ok = { $ore } ore
site-cancelled = Building was cancelled by user
build-building = building { $name }
build-waiting = { $count } waiting

## Warbot designer (the original's strings)

designer-open = Warbot constructor
designer-build = Start production
designer-batch = Start batch production
designer-stop = Stop production
designer-refused = Warbot constructor: { $why }
designer-tonnes = t
designer-kph = kph
designer-metres = m
designer-seconds = s
designer-source = Source panel
designer-destination = Destination panel
designer-no-items = NO ITEMS AVAILABLE
designer-no-data = No data available
designer-chassis = Chassis
designer-chassis-short = Chs
designer-turrets = Turrets
designer-turrets-short = Tur
designer-weapons = Weapons
designer-weapons-short = Wpn
designer-armour = Armour (optional)
designer-armour-short = Arm
designer-systems = Internal systems (optional)
designer-systems-short = Sys
designer-ammo = Ammo (optional)
designer-ammo-short = Amm
designer-select-chassis = SELECT CHASSIS
designer-select-turret = SELECT TURRET
designer-select-weapon = SELECT WEAPON
designer-tune-up = TUNE UP OR ACCEPT TO PRODUCTION
designer-hint-1 = Use the mouse to click on the item
designer-hint-2 = in the source panel
designer-hint-3 = to add the item to the project...
designer-weight = Weight:
designer-speed = Max. speed:
designer-defence = Defence:
designer-offence = Offence:
designer-sensor = Sensor range:
designer-price = Ore / power / time:
designer-ore = Ore:
designer-power = Power:
designer-add = Add to project
designer-remove = Remove from project
designer-accept = Accept to production
designer-clear = Clear project
designer-save = Save project to file
designer-load = Load project from file
designer-exit = Leave bot constructor
designer-accept-short = ✔ Accept
designer-clear-short = ✖ Clear
designer-save-short = Save
designer-load-short = Load
designer-exit-short = Exit
designer-recent = Recent projects
designer-type-name = Type the name of the designed warbot...

## Pause menu

pause-title = Paused
pause-resume = Resume
pause-quit = Quit to main menu
pause-save = Save game
pause-load = Load game
pause-back = Back

## Outcome

outcome-title-completed = Mission complete
outcome-title-failed = Mission failed
outcome-title-defeated = Defeated
outcome-completed = completed
outcome-failed = failed
outcome-defeated = defeated
outcome-record = { $clan }: { $outcome } at { $seconds } s
outcome-menu = Back to main menu
outcome-keep-watching = Keep watching
outcome-next = Next mission
outcome-retry = Retry

## Settings

settings-language = language
settings-language-system = system ({ $name })
settings-scale = interface scale
settings-overlay = debug overlay (F3)
settings-autosave = Autosave
settings-autosave-off = off
settings-autosave-minutes = every { $n } minutes
settings-video = Video
settings-windowed = window
settings-full-screen = full screen
settings-window-size = window size
settings-vsync = wait for retrace (vsync)
settings-shading = shading
settings-shading-auto = auto
settings-shading-auto-hint = fast on a software renderer, full on a graphics card
settings-shading-full = full
settings-shading-fast = fast
settings-shading-fast-hint = matte lighting without highlights: a software renderer's choice
settings-sound = Sound
settings-mute = mute
settings-volume-master = master
settings-volume-effects = effects
settings-volume-ambient = ambient
settings-volume-voices = voices
settings-volume-music = music
settings-volume-interface = interface
settings-input = Mouse and gamepad
settings-mouse-sensitivity = mouse sensitivity %
settings-invert-mouse-x = inverse mouse X
settings-invert-mouse-y = inverse mouse Y
settings-stick-sensitivity = gamepad sensitivity %
settings-invert-stick-x = inverse gamepad X
settings-invert-stick-y = inverse gamepad Y
settings-keys = Keys and buttons
settings-press-key = press a key…
settings-change = change

## Button actions

action-Select = Select
action-Order = Order (move / attack)
action-Queue = Add / queue (hold)
action-Stop = Stop
action-GroupModifier = Assign group (hold)
action-Group1 = Group 1
action-Group2 = Group 2
action-Group3 = Group 3
action-Group4 = Group 4
action-Group5 = Group 5
action-Group6 = Group 6
action-Group7 = Group 7
action-Group8 = Group 8
action-Group9 = Group 9
action-CameraLookHold = Look around (hold)
action-CameraFast = Camera faster (hold)
action-CameraCenter = Center camera
action-CameraInfrared = Infrared view
action-CameraZoomMode = Command camera zoom
action-SatelliteMap = Satellite map
action-Pager = Message box
action-Objectives = Objectives
action-Help = Help
action-Spotlight = Spotlight
action-CameraFreeFly = Free-fly camera
action-CameraFollow = Follow selection
action-Pilot = Pilot robot
action-Enter = Enter warbot (the hero)
action-Wingmen = Wingman menu
action-SelectTarget = Target selection
action-SelectEnemy = Nearest enemy
action-SelectFriend = Nearest friend
action-Fire = Fire (piloting)
action-FireMissiles = Fire the guided guns (piloting)
action-FireAll = Fire every gun (piloting)
action-AllWeapons = Select every gun (piloting)
action-Weapon1 = Select or deselect gun 1 (piloting)
action-Weapon2 = Select or deselect gun 2 (piloting)
action-Weapon3 = Select or deselect gun 3 (piloting)
action-Weapon4 = Select or deselect gun 4 (piloting)
action-Weapon5 = Select or deselect gun 5 (piloting)
action-Weapon6 = Select or deselect gun 6 (piloting)
action-Weapon7 = Select or deselect gun 7 (piloting)
action-Weapon8 = Select or deselect gun 8 (piloting)
action-Weapon9 = Select or deselect gun 9 (piloting)
action-Camouflage = Camouflage on or off (piloting)
action-TurretLock = Turret lock on or off (piloting a bot)
action-AutoDriver = Auto-driver
action-OuterCamera = Outer camera
action-TurnLeft = Turn the building left
action-TurnRight = Turn the building right
action-Pause = Pause / menu
action-Chat = Chat
action-QuickSave = Quick save
action-QuickLoad = Quick load
action-DebugOverlay = Debug overlay
action-Inspector = World inspector

## Debug overlay

overlay-fps = fps
overlay-entities = entities
overlay-objects = mission objects
overlay-instances = model instances ({ $pending } pending, { $failed } failed)
overlay-parts = drawn parts ({ $lightmapped } lightmapped)
overlay-pairs = mesh/material pairs ({ $meshes } meshes, { $materials } materials)
overlay-terrain = terrain faces ({ $overlaid } overlaid)
overlay-load-total = load total

## Multiplayer

mp-title = Multiplayer
mp-host = Host the mission I start, on port
mp-join-label = Join
mp-join-as = as
mp-join = Join
mp-bad-address = not HOST:PORT
mp-find-lan = Find games on the LAN
mp-lan-session = { $address }  { $mission }  ({ $players }/{ $most } players)
mp-connecting = Connecting…
mp-lobby-loading = Player { $player } ({ $clan }) of mission { $mission }: loading it…
mp-lobby-waiting = Player { $player } ({ $clan }): waiting for the mission…
mp-lobby-held = The host holds the start until enough players are ready.
mp-player-line = player { $player }: { $line }
mp-observer = observer
mp-clan = clan { $clan }
mp-flag-host = host
mp-flag-you = you
mp-ready = ready
mp-not-ready = not ready
mp-player = { $name } ({ $clan }){ $flags }, { $ready }
mp-not-listening = (not listening)
mp-hosting = Hosting on { $address }: { $count } players
mp-start-held = Start held: { $ready } of { $wait } players ready
mp-joined = Joined { $server } as player { $player }
mp-rejoin = Rejoin (the seat waits)
mp-dropped = The connection to the host dropped.

## Saves and replays
save-load-title = Load game
save-save-title = Save game
save-empty = empty
save-damaged = damaged
save-details = game time { $time } · { $date }
save-load = Load
save-name = New slot:
save-save = Save
save-here = Save here
save-overwrite = Overwrite { $name }?
save-yes = Yes
save-no = No
replay-list-title = Replays
replay-none = No replays yet: every game records one.
replay-watch = Watch
replay-title = Replay of { $mission }
replay-play = Play
replay-pause = Pause
replay-free-camera = Free camera
replay-tick = tick of { $length }
replay-diverged = Diverges from the recording at tick { $tick }
replay-checks = { $count } state hashes checked
chat-title = Chat
chat-send = Say
chat-clan-only = to my clan only
chat-line = { $name }: { $text }
chat-line-clan = { $name } (clan): { $text }
chat-host = the host

objectives-title = Objectives
objectives-none = No objectives
objectives-bonus = bonus

# The cockpit HUD (the original's strings 3071–3074, 5094, 6250, 6178, 6255, 6230)
cockpit-hero-gun-1 = AUTOCANNON 25mm
cockpit-hero-gun-2 = PLASMA RIFLE LS
cockpit-hero-gun-3 = BATTLE LASER ER
cockpit-hero-gun-4 = AWB MISSILE
cockpit-noname = NONAME
cockpit-inf = INF
cockpit-out-of-range = OUT OF RANGE
cockpit-metres = m
cockpit-dangerous = Dangerous!
cockpit-human = Human

# The help screen (the message history) and the message box's footer (the original's 6208)
help-title = Help:
help-empty = No messages yet.
help-more = Press { $key } to see more
