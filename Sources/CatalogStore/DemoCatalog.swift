import CatalogAPI

/// A demo catalog of training courses (formations) in French, so that a new user sees data.
///
/// ```swift
/// if try await DemoCatalog.seed(into: store) {
///     logger.info("seeded \(DemoCatalog.itemCount) demo items")
/// }
/// ```
///
/// The content is fixed: the same categories and items, in the same order, every time. On a
/// fresh database the items get ids 1 to ``itemCount`` (more than 42, the id load tests ask for).
public enum DemoCatalog {
    /// The categories the demo adds to the defaults, in order: name and icon.
    private static let categories: [(name: String, icon: String)] = [
        ("IA Générative", "sparkles"),
        ("Développement", "chevron.left.forwardslash.chevron.right"),
        ("Data", "chart.bar"),
        ("Design", "paintbrush"),
        ("Management", "person.3"),
    ]

    /// How many items ``seed(into:)`` creates.
    public static var itemCount: Int { items.count }

    /// Creates the demo categories (reusing one whose slug already exists) and items when the
    /// store holds no item yet. Returns whether it seeded: `false` when the store already had
    /// items, so that running it again (e.g. at every start) never duplicates anything.
    ///
    /// Each creation is its own store transaction: a failure part-way leaves what was created.
    public static func seed(into store: any CatalogStore) async throws(CatalogError) -> Bool {
        let existing = try await store.listItems(ItemQuery(pageSize: 1))
        guard existing.totalCount == 0 else { return false }

        let present = try await store.listCategories(CategoryQuery())
        var categoryIDs: [String: Int64] = [:]
        for (name, icon) in categories {
            let checkedName = try CategoryRules.name(name)
            if let category = present.first(where: { $0.slug == checkedName.slug }) {
                categoryIDs[name] = category.id
            } else {
                let draft = CategoryDraft(name: checkedName, icon: try CategoryRules.icon(icon))
                categoryIDs[name] = try await store.createCategory(draft).id
            }
        }

        for item in items {
            var categoryID: Int64?
            if let category = item.category {
                guard let id = categoryIDs[category] else {
                    throw .invalidField("categoryId", "the demo item '\(item.title)' names an unknown demo category '\(category)'")
                }
                categoryID = id
            }
            let draft = ItemDraft(
                title: try ItemRules.title(item.title),
                summary: try ItemRules.summary(item.summary),
                level: try ItemRules.shortText(item.level, field: "level"),
                duration: try ItemRules.shortText(item.duration, field: "duration"),
                price: try ItemRules.price(Money(amount: item.price, currency: "EUR")),
                categoryID: categoryID)
            _ = try await store.createItem(draft)
        }
        return true
    }

    // MARK: - Data

    private struct DemoItem {
        var title: String
        var summary: String
        var level: String
        var duration: String
        /// Amount in EUR.
        var price: String
        /// A name of ``categories``, or `nil` for an uncategorized item.
        var category: String?
    }

    private static let ia = "IA Générative"
    private static let dev = "Développement"
    private static let data = "Data"
    private static let design = "Design"
    private static let management = "Management"

    private static let items: [DemoItem] = [
        // IA Générative
        DemoItem(
            title: "Introduction à l'IA générative",
            summary: "Comprendre le fonctionnement des grands modèles de langage et identifier les cas d'usage pertinents pour votre activité.",
            level: "Débutant", duration: "1 jour", price: "490.00", category: ia),
        DemoItem(
            title: "Prompt engineering pour les équipes métier",
            summary: "Rédiger des instructions précises et réutilisables pour obtenir des réponses fiables d'un assistant conversationnel.",
            level: "Débutant", duration: "1 jour", price: "590.00", category: ia),
        DemoItem(
            title: "Construire un assistant RAG avec des LLM",
            summary: "Concevoir un assistant qui répond à partir de vos documents internes grâce à la recherche vectorielle et à la génération augmentée.",
            level: "Avancé", duration: "3 jours", price: "1890.00", category: ia),
        DemoItem(
            title: "Fine-tuning de modèles de langage",
            summary: "Adapter un modèle open source à votre domaine avec LoRA, en préparant les données et en mesurant les gains obtenus.",
            level: "Avancé", duration: "3 jours", price: "2190.00", category: ia),
        DemoItem(
            title: "IA générative pour le marketing et la communication",
            summary: "Produire textes, visuels et campagnes plus rapidement tout en gardant la maîtrise du ton et de la marque.",
            level: "Intermédiaire", duration: "2 jours", price: "990.00", category: ia),
        DemoItem(
            title: "Agents autonomes et orchestration d'outils",
            summary: "Créer des agents capables d'appeler des API et d'enchaîner des tâches, avec des garde-fous pour la production.",
            level: "Avancé", duration: "2 jours", price: "1490.00", category: ia),
        DemoItem(
            title: "Génération d'images : Stable Diffusion et Midjourney",
            summary: "Maîtriser les outils de génération d'images pour créer des visuels cohérents et respectueux des droits d'auteur.",
            level: "Intermédiaire", duration: "2 jours", price: "1090.00", category: ia),
        DemoItem(
            title: "Éthique, droit et gouvernance de l'IA",
            summary: "Connaître l'AI Act, les risques de biais et les règles de gouvernance à mettre en place avant tout déploiement.",
            level: "Débutant", duration: "1 jour", price: "690.00", category: ia),
        DemoItem(
            title: "Déployer des LLM en production (LLMOps)",
            summary: "Industrialiser vos applications d'IA générative : évaluation, observabilité, maîtrise des coûts et sécurité.",
            level: "Avancé", duration: "5 jours", price: "2490.00", category: ia),
        DemoItem(
            title: "Copilotes de code : productivité et bonnes pratiques",
            summary: "Tirer parti des assistants de programmation sans sacrifier la qualité, la sécurité ni la maintenabilité du code.",
            level: "Intermédiaire", duration: "1 jour", price: "590.00", category: ia),

        // Développement
        DemoItem(
            title: "Swift et SwiftUI : les fondamentaux",
            summary: "Développer votre première application iOS en Swift, de la syntaxe du langage aux interfaces déclaratives avec SwiftUI.",
            level: "Débutant", duration: "5 jours", price: "2190.00", category: dev),
        DemoItem(
            title: "Programmation concurrente en Swift",
            summary: "Écrire du code concurrent sûr avec async/await, les acteurs et le contrôle strict de Swift 6.",
            level: "Avancé", duration: "2 jours", price: "1390.00", category: dev),
        DemoItem(
            title: "Python pour débutants",
            summary: "Apprendre les bases de la programmation en Python pour automatiser vos tâches et manipuler des fichiers.",
            level: "Débutant", duration: "3 jours", price: "1290.00", category: dev),
        DemoItem(
            title: "TypeScript et React : applications web modernes",
            summary: "Construire une application web typée, testée et performante avec React, TypeScript et les hooks.",
            level: "Intermédiaire", duration: "5 jours", price: "2290.00", category: dev),
        DemoItem(
            title: "Architecture microservices",
            summary: "Découper un système en services autonomes et maîtriser la communication, la résilience et le déploiement.",
            level: "Avancé", duration: "3 jours", price: "1790.00", category: dev),
        DemoItem(
            title: "Tests automatisés et intégration continue",
            summary: "Mettre en place des tests unitaires et d'intégration exécutés à chaque modification dans une chaîne d'intégration continue.",
            level: "Intermédiaire", duration: "2 jours", price: "1190.00", category: dev),
        DemoItem(
            title: "Git en équipe : branches, revues et bonnes pratiques",
            summary: "Collaborer efficacement avec Git grâce à une stratégie de branches claire et des revues de code constructives.",
            level: "Débutant", duration: "1 jour", price: "490.00", category: dev),
        DemoItem(
            title: "Docker et Kubernetes pour les développeurs",
            summary: "Conteneuriser vos applications et les déployer sur un cluster Kubernetes de manière reproductible.",
            level: "Intermédiaire", duration: "3 jours", price: "1590.00", category: dev),
        DemoItem(
            title: "API REST et gRPC : conception et sécurité",
            summary: "Concevoir des API claires, versionnées et sécurisées, et choisir entre REST et gRPC selon le contexte.",
            level: "Intermédiaire", duration: "2 jours", price: "1190.00", category: dev),
        DemoItem(
            title: "Rust : programmation système sûre",
            summary: "Écrire des programmes rapides et sans erreurs mémoire grâce au modèle de possession et d'emprunt de Rust.",
            level: "Avancé", duration: "5 jours", price: "2390.00", category: dev),

        // Data
        DemoItem(
            title: "SQL : interroger et analyser ses données",
            summary: "Écrire des requêtes SQL avec jointures, agrégations et fonctions de fenêtre pour répondre aux questions métier.",
            level: "Débutant", duration: "2 jours", price: "890.00", category: data),
        DemoItem(
            title: "Analyse de données avec pandas",
            summary: "Nettoyer, transformer et explorer des jeux de données en Python avec pandas et les notebooks Jupyter.",
            level: "Intermédiaire", duration: "3 jours", price: "1390.00", category: data),
        DemoItem(
            title: "Machine learning appliqué avec scikit-learn",
            summary: "Entraîner, évaluer et interpréter des modèles prédictifs sur des cas concrets de classification et de régression.",
            level: "Intermédiaire", duration: "3 jours", price: "1690.00", category: data),
        DemoItem(
            title: "Power BI : tableaux de bord interactifs",
            summary: "Connecter vos sources de données et concevoir des tableaux de bord clairs pour le pilotage de l'activité.",
            level: "Débutant", duration: "2 jours", price: "990.00", category: data),
        DemoItem(
            title: "Data engineering : pipelines avec Airflow et dbt",
            summary: "Construire des pipelines de données fiables, testés et planifiés, de l'ingestion à l'entrepôt analytique.",
            level: "Avancé", duration: "3 jours", price: "1890.00", category: data),
        DemoItem(
            title: "Statistiques pour la prise de décision",
            summary: "Comprendre les indicateurs, les tests et les intervalles de confiance pour décider à partir de données chiffrées.",
            level: "Débutant", duration: "2 jours", price: "890.00", category: data),
        DemoItem(
            title: "Deep learning avec PyTorch",
            summary: "Concevoir et entraîner des réseaux de neurones pour la vision et le langage avec PyTorch.",
            level: "Avancé", duration: "5 jours", price: "2490.00", category: data),
        DemoItem(
            title: "Gouvernance des données et RGPD",
            summary: "Organiser la qualité, la traçabilité et la conformité de vos données personnelles au regard du RGPD.",
            level: "Intermédiaire", duration: "1 jour", price: "690.00", category: data),
        DemoItem(
            title: "Data visualisation : raconter avec les données",
            summary: "Choisir les bons graphiques et construire un récit visuel qui rend vos analyses convaincantes.",
            level: "Intermédiaire", duration: "2 jours", price: "1090.00", category: data),

        // Design
        DemoItem(
            title: "Figma : de la maquette au prototype",
            summary: "Concevoir des maquettes, des composants et des prototypes interactifs dans Figma, en collaboration avec l'équipe.",
            level: "Débutant", duration: "2 jours", price: "890.00", category: design),
        DemoItem(
            title: "UX design : méthodes de recherche utilisateur",
            summary: "Mener entretiens, tests d'utilisabilité et cartographies d'expérience pour fonder vos choix sur les besoins réels.",
            level: "Intermédiaire", duration: "3 jours", price: "1390.00", category: design),
        DemoItem(
            title: "Design system : concevoir et maintenir",
            summary: "Créer une bibliothèque de composants et de règles partagée entre designers et développeurs, et la faire vivre.",
            level: "Avancé", duration: "2 jours", price: "1290.00", category: design),
        DemoItem(
            title: "Accessibilité numérique (RGAA)",
            summary: "Rendre vos interfaces utilisables par tous en appliquant le référentiel RGAA et les critères WCAG.",
            level: "Intermédiaire", duration: "2 jours", price: "1090.00", category: design),
        DemoItem(
            title: "UI design pour applications mobiles",
            summary: "Dessiner des interfaces mobiles élégantes et cohérentes avec les conventions d'iOS et d'Android.",
            level: "Intermédiaire", duration: "3 jours", price: "1390.00", category: design),
        DemoItem(
            title: "Design thinking : atelier pratique",
            summary: "Expérimenter les étapes du design thinking sur un cas réel, de l'empathie au prototype testé.",
            level: "Débutant", duration: "1 jour", price: "590.00", category: design),
        DemoItem(
            title: "Motion design avec After Effects",
            summary: "Animer logos, interfaces et infographies pour donner du rythme à vos contenus vidéo.",
            level: "Intermédiaire", duration: "3 jours", price: "1490.00", category: design),
        DemoItem(
            title: "Typographie et identité visuelle",
            summary: "Choisir et associer les polices, les couleurs et les grilles qui donnent une identité forte à une marque.",
            level: "Débutant", duration: "2 jours", price: "790.00", category: design),

        // Management
        DemoItem(
            title: "Manager une équipe pour la première fois",
            summary: "Prendre sa place de manager, fixer des objectifs clairs et accompagner chaque collaborateur dans sa progression.",
            level: "Débutant", duration: "2 jours", price: "1190.00", category: management),
        DemoItem(
            title: "Scrum Master : préparation à la certification",
            summary: "Maîtriser le cadre Scrum, faciliter les cérémonies et se préparer à l'examen de certification PSM I.",
            level: "Intermédiaire", duration: "3 jours", price: "1590.00", category: management),
        DemoItem(
            title: "Product Owner : piloter la valeur",
            summary: "Construire et prioriser un backlog produit en dialogue constant avec les utilisateurs et l'équipe de développement.",
            level: "Intermédiaire", duration: "2 jours", price: "1290.00", category: management),
        DemoItem(
            title: "Conduite du changement",
            summary: "Anticiper les résistances et embarquer les équipes dans une transformation organisationnelle ou numérique.",
            level: "Avancé", duration: "2 jours", price: "1390.00", category: management),
        DemoItem(
            title: "Feedback et entretiens annuels",
            summary: "Préparer et conduire des entretiens constructifs qui motivent et fixent des objectifs partagés.",
            level: "Débutant", duration: "1 jour", price: "590.00", category: management),
        DemoItem(
            title: "Agilité à grande échelle avec SAFe",
            summary: "Coordonner plusieurs équipes agiles autour d'un même produit grâce au cadre SAFe et aux PI Plannings.",
            level: "Avancé", duration: "3 jours", price: "1990.00", category: management),
        DemoItem(
            title: "Leadership et intelligence émotionnelle",
            summary: "Développer un leadership authentique en apprenant à reconnaître et réguler ses émotions et celles de l'équipe.",
            level: "Intermédiaire", duration: "2 jours", price: "1190.00", category: management),
        DemoItem(
            title: "Négociation et gestion des conflits",
            summary: "Préparer une négociation, désamorcer les tensions et trouver des accords durables avec vos interlocuteurs.",
            level: "Intermédiaire", duration: "2 jours", price: "1090.00", category: management),

        // Uncategorized
        DemoItem(
            title: "Cybersécurité : les bons réflexes",
            summary: "Reconnaître l'hameçonnage, protéger ses mots de passe et adopter les gestes qui évitent la plupart des incidents.",
            level: "Débutant", duration: "1 jour", price: "490.00"),
        DemoItem(
            title: "Prise de parole en public",
            summary: "Structurer son message, gérer son trac et captiver son auditoire lors de présentations et de réunions.",
            level: "Débutant", duration: "2 jours", price: "890.00"),
        DemoItem(
            title: "Anglais professionnel pour la tech",
            summary: "Gagner en aisance à l'oral et à l'écrit dans les réunions, la documentation et les échanges techniques en anglais.",
            level: "Intermédiaire", duration: "5 jours", price: "1490.00"),
        DemoItem(
            title: "Gestion du temps et des priorités",
            summary: "Organiser sa charge de travail, distinguer l'urgent de l'important et protéger ses plages de concentration.",
            level: "Débutant", duration: "1 jour", price: "490.00"),
        DemoItem(
            title: "Sécurité des applications web (OWASP)",
            summary: "Identifier et corriger les vulnérabilités du Top 10 OWASP dans vos applications web et vos API.",
            level: "Avancé", duration: "3 jours", price: "1790.00"),
    ]
}
