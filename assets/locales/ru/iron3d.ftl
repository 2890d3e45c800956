# Собственные тексты интерфейса iron3d, русский язык.
# Ключи те же, что в ../en/iron3d.ftl; тесты проверяют, что в обоих файлах одни и те
# же ключи и что есть каждый ключ, который использует код.

language-name = Русский

## Главное меню

menu-subtitle = Паркан: Железная стратегия — новая реализация движка
menu-data = Данные: { $path } (файлов: { $files })
menu-no-data = Нет данных игры: запустите с --data КАТАЛОГ (или задайте IRON3D_DATA)
menu-load-failed = Миссия { $mission } не загрузилась на этапе «{ $phase }»
menu-dismiss = Закрыть
menu-missions = Миссии
menu-no-missions = В MISSIONS/ нет миссий.
menu-settings = Настройки
menu-settings-back = Назад к миссиям
menu-load-game = Загрузить игру
menu-replays = Записи игр
menu-file-failed = Файл не удалось открыть
menu-quit = Выход
menu-keys-hint = F12 инспектор · F3 отладка · Esc пауза · F5 быстрое сохранение · F9 быстрая загрузка · Настройки → Клавиши и кнопки для управления
menu-campaign = Кампания { $number }
menu-continue = Продолжить кампанию
menu-single = Одиночные миссии
menu-tutorial = Обучение
menu-locked = Закрыто: сначала пройдите предыдущую миссию
menu-broken = Не загружается: { $error }
menu-difficulty = Сложность:
menu-difficulty-easy = Лёгкая
menu-difficulty-normal = Обычная
menu-difficulty-hard = Трудная

## Экран загрузки и его этапы

loading-title = Загрузка { $mission }
loading-phase-count = { $phase }: { $done }/{ $total } ({ $ms } мс)
loading-phase = { $phase } ({ $ms } мс)
loading-tip = Совет
phase-Context = контекст миссии
phase-Foundation = основа мира
phase-Description = описание миссии
phase-Prototypes = разбор прототипов
phase-Resources = подготовка ресурсов
phase-Construction = создание объектов
phase-Registration = регистрация
phase-ScenarioStart = запуск сценария

## Брифинг

briefing-title = Брифинг
briefing-start = Начать
briefing-back = Назад

## Интерфейс миссии

hud-from-system = от: Система
hud-from-training = от: Инструктор
hud-from-information = от: Информационная служба
# The original's string 6199, its spelling kept.
hud-message-repeated = Полученное сообщение уже есть в истории
hud-mission = миссия
hud-ore = руда { $amount }
hud-ore-bar = Руда
hud-energy-bar = Энергия
hud-power = энергия { $amount }
hud-units = { $count ->
    [one] { $count } робот
    [few] { $count } робота
   *[many] { $count } роботов
}
hud-piloting = ПИЛОТИРОВАНИЕ · P — выйти
hud-on-foot = ПЕШКОМ · Enter — робот или пульт здания · ~ ведомые
hud-driving = В РОБОТЕ · P — выйти · ~ ведомые
hud-telepresence = ТЕЛЕПРИСУТСТВИЕ · P или Esc — вернуться
hud-command = КОМАНДОВАНИЕ · Esc — вернуться
hud-screen = ЗАВОД · Esc — вернуться
hud-research = исследования:
hud-research-busy = исследования: заняты
hud-node = узел { $n }
hud-object = объект { $id }
hud-lost = потерян: { $what }
hud-destroyed = уничтожен враг: { $what }
hud-built = построен: { $what }
hud-researched = исследовано: { $what }
hud-lode-found = найдено месторождение ({ $what })
hud-constructed = здание построено ({ $what })
hud-upgraded = здание улучшено ({ $what })
hud-captured = { $what } захвачено
hud-refused = отказано: { $what }

## Приказы и состояния движения

order-holding = стоит
order-move-to = идёт к { $x }, { $y }
order-go-to = идёт к { $n }
order-follow-path = идёт по пути { $n }
order-patrol = патрулирует путь { $n }
order-attack = атакует { $n }
order-build = строит
order-research = исследует { $n }
order-piloted = под управлением
order-released = отпущен
order-haul = возит руду
order-migrate = пасётся
order-refit = на ремонте в доке
order-search-lodes = ищет руду
order-construct = строит
order-upgrade = улучшает { $n }
order-capture = захватывает { $n }
order-board = садится в { $n }
order-leave = уходит
order-stand-ground = на позиции
order-shutdown = выключен
order-follow = следует за { $n }
order-search = ищет
order-guard = патрулирует
wingman-standby = Стоять
wingman-follow = За мной
wingman-search-capture = Искать и захватывать
wingman-seek-destroy = Искать и уничтожать
wingman-attack = Атаковать
wingman-capture = Захватить здание
wingman-refit = На ремонт
commander-hero = Выйти из стратегического управления
commander-battle-units = Боевые единицы
commander-transports = Транспорты
commander-builders = Строители
commander-research = Исследовательский центр
commander-factory = Завод
commander-towers = Боевые башни
commander-bunkers = Бункеры
commander-other = Другие здания
commander-chat = Чат
commander-map = Спутниковая карта
commander-game-menu = Игровое меню
hq-title = Приказы
hq-guard = Охранять
hq-search-minerals = Искать руду
hq-guard-pick = Правый щелчок — что охранять: юнит, здание или место
hq-telepresence = Ручное управление:
hq-drive-a = A
hq-drive-a-tip = Вести самому: ход, башня и оружие ваши
hq-drive-b = B
hq-drive-b-tip = Автопилот 1: движение по приказам, башня и оружие ваши
hq-drive-c = C
hq-drive-c-tip = Автопилот 2: ИИ ведёт и воюет
order-with-state = { $order } ({ $state })
nav-idle = ждёт
nav-moving = в пути
nav-arrived = прибыл
nav-blocked = заблокирован

## Производство

build-title = Строить в { $building }
build-robot = робот
site-title = Строитель { $builder }: постройка
site-row = { $name } ({ $ore } руды)
site-ok = { $ore } руды
site-cancelled = Строительство отменено пользователем
build-building = строится { $name }
build-waiting = в очереди: { $count }

## Конструктор роботов (строки оригинала)

designer-open = Конструктор роботов
designer-build = Начать производство
designer-batch = Серийное производство
designer-stop = Остановить производство
designer-refused = Конструктор роботов: { $why }
designer-tonnes = т
designer-kph = км/ч
designer-metres = м
designer-seconds = с
designer-source = Панель источника
designer-destination = Панель назначения
designer-no-items = НЕТ ДОСТУПНЫХ ЭЛЕМЕНТОВ
designer-no-data = Нет данных
designer-chassis = Шасси
designer-chassis-short = Шас
designer-turrets = Башни
designer-turrets-short = Баш
designer-weapons = Оружие
designer-weapons-short = Ору
designer-armour = Броня (необязательно)
designer-armour-short = Бро
designer-systems = Внутренние системы (необязательно)
designer-systems-short = Сис
designer-ammo = Боеприпасы (необязательно)
designer-ammo-short = Бое
designer-select-chassis = ВЫБЕРИТЕ ШАССИ
designer-select-turret = ВЫБЕРИТЕ БАШНЮ
designer-select-weapon = ВЫБЕРИТЕ ОРУЖИЕ
designer-tune-up = НАСТРОЙТЕ ИЛИ ОТПРАВЬТЕ В ПРОИЗВОДСТВО
designer-hint-1 = Щёлкните мышью по элементу
designer-hint-2 = в панели источника,
designer-hint-3 = чтобы добавить его в проект...
designer-weight = Вес:
designer-speed = Макс. скорость:
designer-defence = Защита:
designer-offence = Атака:
designer-sensor = Дальность радара:
designer-price = Руда / энергия / время:
designer-ore = Руда:
designer-power = Энергия:
designer-add = Добавить в проект
designer-remove = Убрать из проекта
designer-accept = Отправить в производство
designer-clear = Очистить проект
designer-save = Сохранить проект в файл
designer-load = Загрузить проект из файла
designer-exit = Покинуть конструктор
designer-accept-short = ✔ Принять
designer-clear-short = ✖ Очистить
designer-save-short = Сохранить
designer-load-short = Загрузить
designer-exit-short = Выход
designer-recent = Последние проекты
designer-type-name = Введите имя робота...

## Пауза

pause-title = Пауза
pause-resume = Продолжить
pause-quit = Выйти в главное меню
pause-save = Сохранить игру
pause-load = Загрузить игру
pause-back = Назад

## Итог миссии

outcome-title-completed = Миссия выполнена
outcome-title-failed = Миссия провалена
outcome-title-defeated = Поражение
outcome-completed = победа
outcome-failed = провал
outcome-defeated = поражение
outcome-record = { $clan }: { $outcome } на { $seconds } с
outcome-menu = В главное меню
outcome-keep-watching = Смотреть дальше
outcome-next = Следующая миссия
outcome-retry = Повторить

## Настройки

settings-language = язык
settings-language-system = системный ({ $name })
settings-scale = масштаб интерфейса
settings-overlay = отладочная панель (F3)
settings-autosave = Автосохранение
settings-autosave-off = выключено
settings-autosave-minutes = каждые { $n } мин
settings-video = Видео
settings-windowed = окно
settings-full-screen = весь экран
settings-window-size = размер окна
settings-vsync = ждать обратного хода луча (vsync)
settings-shading = освещение
settings-shading-auto = авто
settings-shading-auto-hint = быстрое при программной отрисовке, полное на видеокарте
settings-shading-full = полное
settings-shading-fast = быстрое
settings-shading-fast-hint = матовое освещение без бликов: выбор для программной отрисовки
settings-sound = Звук
settings-mute = без звука
settings-volume-master = общая громкость
settings-volume-effects = эффекты
settings-volume-ambient = окружение
settings-volume-voices = голоса
settings-volume-music = музыка
settings-volume-interface = интерфейс
settings-input = Мышь и геймпад
settings-mouse-sensitivity = чувствительность мыши, %
settings-invert-mouse-x = инверсия мыши по X
settings-invert-mouse-y = инверсия мыши по Y
settings-stick-sensitivity = чувствительность геймпада, %
settings-invert-stick-x = инверсия геймпада по X
settings-invert-stick-y = инверсия геймпада по Y
settings-keys = Клавиши и кнопки
settings-press-key = нажмите клавишу…
settings-change = изменить

## Действия кнопок

action-Select = Выбрать
action-Order = Приказ (идти / атаковать)
action-Queue = Добавить / в очередь (удерживать)
action-Stop = Стоп
action-GroupModifier = Назначить группу (удерживать)
action-Group1 = Группа 1
action-Group2 = Группа 2
action-Group3 = Группа 3
action-Group4 = Группа 4
action-Group5 = Группа 5
action-Group6 = Группа 6
action-Group7 = Группа 7
action-Group8 = Группа 8
action-Group9 = Группа 9
action-CameraLookHold = Осмотреться (удерживать)
action-CameraFast = Камера быстрее (удерживать)
action-CameraCenter = Центрировать камеру
action-CameraInfrared = Инфракрасный вид
action-CameraZoomMode = Увеличение командной камеры
action-SatelliteMap = Спутниковая карта
action-Pager = Окно сообщений
action-Objectives = Задачи
action-Help = Справка
action-Spotlight = Прожектор
action-CameraFreeFly = Свободная камера
action-CameraFollow = Следовать за выбранным
action-Pilot = Пилотировать робота
action-Enter = Сесть в робота (герой)
action-Wingmen = Меню ведомых
action-SelectTarget = Выбор цели
action-SelectEnemy = Ближайший враг
action-SelectFriend = Ближайший друг
action-Fire = Огонь (пилотирование)
action-FireMissiles = Огонь управляемым оружием (пилотирование)
action-FireAll = Огонь из всего оружия (пилотирование)
action-AllWeapons = Выбрать всё оружие (пилотирование)
action-Weapon1 = Выбрать или снять оружие 1 (пилотирование)
action-Weapon2 = Выбрать или снять оружие 2 (пилотирование)
action-Weapon3 = Выбрать или снять оружие 3 (пилотирование)
action-Weapon4 = Выбрать или снять оружие 4 (пилотирование)
action-Weapon5 = Выбрать или снять оружие 5 (пилотирование)
action-Weapon6 = Выбрать или снять оружие 6 (пилотирование)
action-Weapon7 = Выбрать или снять оружие 7 (пилотирование)
action-Weapon8 = Выбрать или снять оружие 8 (пилотирование)
action-Weapon9 = Выбрать или снять оружие 9 (пилотирование)
action-Camouflage = Маскировка вкл./выкл. (управление)
action-TurretLock = Фиксация башни вкл./выкл. (управление ботом)
action-AutoDriver = Автопилот
action-OuterCamera = Внешняя камера
action-TurnLeft = Повернуть здание влево
action-TurnRight = Повернуть здание вправо
action-Pause = Пауза / меню
action-Chat = Чат
action-QuickSave = Быстрое сохранение
action-QuickLoad = Быстрая загрузка
action-DebugOverlay = Отладочная панель
action-Inspector = Инспектор мира

## Отладочная панель

overlay-fps = кадров/с
overlay-entities = сущностей
overlay-objects = объектов миссии
overlay-instances = экземпляров моделей (ожидают: { $pending }, ошибок: { $failed })
overlay-parts = частей отрисовано (с картами освещения: { $lightmapped })
overlay-pairs = пар сетка/материал (сеток: { $meshes }, материалов: { $materials })
overlay-terrain = граней рельефа (с наложением: { $overlaid })
overlay-load-total = загрузка всего

## Сетевая игра

mp-title = Сетевая игра
mp-host = Открыть запускаемую миссию для игроков, порт
mp-join-label = Подключиться к
mp-join-as = как
mp-join = Подключиться
mp-bad-address = нужно УЗЕЛ:ПОРТ
mp-find-lan = Найти игры в локальной сети
mp-lan-session = { $address }  { $mission }  (игроков: { $players }/{ $most })
mp-connecting = Подключение…
mp-lobby-loading = Игрок { $player } ({ $clan }) миссии { $mission }: загрузка…
mp-lobby-waiting = Игрок { $player } ({ $clan }): ожидание миссии…
mp-lobby-held = Хозяин игры ждёт, пока будут готовы все игроки.
mp-player-line = игрок { $player }: { $line }
mp-observer = наблюдатель
mp-clan = клан { $clan }
mp-flag-host = хозяин
mp-flag-you = вы
mp-ready = готов
mp-not-ready = не готов
mp-player = { $name } ({ $clan }){ $flags }, { $ready }
mp-not-listening = (не слушает)
mp-hosting = Игра на { $address }: игроков { $count }
mp-start-held = Старт ждёт: готовы { $ready } из { $wait }
mp-joined = Подключён к { $server } как игрок { $player }
mp-rejoin = Вернуться в игру (место ждёт)
mp-dropped = Связь с хостом потеряна.

## Сохранения и записи игр
save-load-title = Загрузить игру
save-save-title = Сохранить игру
save-empty = пусто
save-damaged = повреждено
save-details = игровое время { $time } · { $date }
save-load = Загрузить
save-name = Новый слот:
save-save = Сохранить
save-here = Сохранить сюда
save-overwrite = Перезаписать { $name }?
save-yes = Да
save-no = Нет
replay-list-title = Записи игр
replay-none = Записей пока нет: каждая игра записывается.
replay-watch = Смотреть
replay-title = Запись { $mission }
replay-play = Играть
replay-pause = Пауза
replay-free-camera = Свободная камера
replay-tick = такт из { $length }
replay-diverged = Расходится с записью на такте { $tick }
replay-checks = Проверено хэшей состояния: { $count }
chat-title = Чат
chat-send = Сказать
chat-clan-only = только моему клану
chat-line = { $name }: { $text }
chat-line-clan = { $name } (клану): { $text }
chat-host = хост

objectives-title = Задачи миссии
objectives-none = Задач нет
objectives-bonus = дополнительная

# Кабина (строки оригинала 3071–3074, 5094, 6250, 6178, 6255, 6230)
cockpit-hero-gun-1 = АВТОПУШКА 25мм
cockpit-hero-gun-2 = ПЛАЗМЕННАЯ ВИНТОВКА LS
cockpit-hero-gun-3 = БОЕВОЙ ЛАЗЕР ER
cockpit-hero-gun-4 = РАКЕТЫ AWB
cockpit-noname = БЕЗ ИМЕНИ
cockpit-inf = БЕСК
cockpit-out-of-range = ВНЕ ДОСЯГАЕМОСТИ
cockpit-metres = м
cockpit-dangerous = Опасно!
cockpit-human = Человек

# The help screen (the message history) and the message box's footer (the original's 6208)
help-title = Справка:
help-empty = Сообщений пока нет.
help-more = Нажмите { $key }, чтобы увидеть больше
